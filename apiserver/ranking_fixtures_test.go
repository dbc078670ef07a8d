package apiserver_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
)

// rankedIndex creates index name in workspace shop with settings (no rebuild follows),
// a write and a search key, and writes the records through PUT /records.
func rankedIndex(name string, settings searchv1alpha1.IndexSettings, records ...string) catalogIndex {
	return rankedIndexWith(name, settings, nil, nil, records...)
}

// rankedIndexWith is rankedIndex with allowed origins and a public search policy.
func rankedIndexWith(name string, settings searchv1alpha1.IndexSettings, origins []searchv1alpha1.Origin,
	policy *searchv1alpha1.PublicSearchPolicy, records ...string) catalogIndex {
	createIndexWith("shop", name, settings, origins, policy)
	role := "shop-" + name
	issueFor(role+"-w", "shop", []searchv1alpha1.Scope{"write"}, []string{name}, nil, nil)
	issueFor(role+"-s", "shop", []searchv1alpha1.Scope{"search"}, []string{name}, nil, nil)
	ci := catalogIndex{name: name, base: "/api/teams/shop/indexes/" + name,
		writeKey: keys[role+"-w"], searchKey: keys[role+"-s"], names: esnames.For("shop", name)}
	for i := 0; i < 2; i++ {
		Eventually(func() int { return call(i, "GET", ci.base+"/indexing", ci.writeKey, nil).status }).Should(Equal(http.StatusOK))
		Eventually(func() int { return call(i, "GET", ci.base+"/indexing", ci.searchKey, nil).status }).Should(Equal(http.StatusOK))
	}
	recs := make([]map[string]any, len(records))
	for i, r := range records {
		Expect(json.Unmarshal([]byte(r), &recs[i])).To(Succeed(), r)
	}
	r := call(0, http.MethodPut, ci.base+"/records", ci.writeKey, recordsBody(recs))
	Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
	return ci
}

// rankedResult is the part of a search answer the ranking specs read.
type rankedResult struct {
	Hits []struct {
		ObjectID   string            `json:"objectID"`
		Highlights map[string]any    `json:"highlights"`
		Snippets   map[string]string `json:"snippets"`
		Ranking    map[string]any    `json:"ranking"`
	} `json:"hits"`
	Total        int64                       `json:"total"`
	IgnoredWords []string                    `json:"ignoredWords"`
	Facets       map[string][]map[string]any `json:"facets"`
}

func (r rankedResult) ids() []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ObjectID)
	}
	return out
}

// searchIn sends a keyed search through a replica; the answer is checked against the
// OpenAPI document.
func searchIn(ci catalogIndex, body string) rankedResult {
	r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var res rankedResult
	Expect(json.Unmarshal(r.body, &res)).To(Succeed())
	return res
}

// criteriaSettings: three field weights, custom ranking by popularity.
var criteriaSettings = searchv1alpha1.IndexSettings{
	// Every criterion, proximity and attribute included, so that each has its pair.
	Ranking:          []searchv1alpha1.RankingCriterion{"sort", "words", "typo", "proximity", "attribute", "exact", "custom"},
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	SortableFields:   []searchv1alpha1.FieldPath{"price"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
}

// criteriaRecords come in pairs that one criterion separates; in each pair the record
// that criterion puts second has the higher popularity, so that custom ranking alone
// would put it first.
var criteriaRecords = []string{
	`{"objectID": "w1", "name": "Walnut desk", "brand": "Oakly", "popularity": 1, "price": 300}`,
	`{"objectID": "w2", "name": "Walnut shelf", "brand": "Oakly", "popularity": 99, "price": 200}`,
	// t1 matches in the lighter field, t2 with a typo: attribute alone would put t2 first.
	`{"objectID": "t1", "name": "Glazed bowl", "description": "Ceramik", "popularity": 2, "price": 30}`,
	`{"objectID": "t2", "name": "Ceramic vase", "popularity": 97, "price": 30}`,
	`{"objectID": "p1", "name": "Wool socks", "popularity": 4, "price": 15}`,
	`{"objectID": "p2", "name": "Wool hiking socks", "popularity": 96, "price": 12}`,
	// Proximity's tiers, a query of two words each: side by side, two positions apart,
	// six apart, in different fields.
	`{"objectID": "linen3", "name": "Linen shirt", "popularity": 10}`,
	`{"objectID": "linen2", "name": "Linen summer shirt", "popularity": 90}`,
	`{"objectID": "silk2", "name": "Silk evening scarf", "popularity": 11}`,
	`{"objectID": "silk1", "name": "Silk tie pocket square gift box scarf", "popularity": 89}`,
	// towel0 has a word in the heavier field, which attribute (after proximity) prefers.
	`{"objectID": "towel1", "name": "Bath set", "description": "Cotton bath mat hand guest beach towel", "popularity": 12}`,
	`{"objectID": "towel0", "name": "Cotton robe", "description": "Matching towel sold apart", "popularity": 88}`,
	`{"objectID": "a1", "name": "Cedar box", "popularity": 5, "price": 40}`,
	`{"objectID": "a2", "name": "Storage box", "description": "Made of cedar", "popularity": 95, "price": 40}`,
	`{"objectID": "e1", "name": "Pot stand", "popularity": 6, "price": 20}`,
	`{"objectID": "e2", "name": "Pottery stand", "popularity": 94, "price": 20}`,
	`{"objectID": "budget", "name": "Budget Smartphone", "popularity": 3, "price": 99}`,
	`{"objectID": "iphone", "name": "Apple iPhone 15 Pro Max Smartphone 256GB Titanium", "popularity": 98, "price": 1299}`,
	`{"objectID": "n1", "name": "Mountain shoe", "description": "By Northpeak", "popularity": 8, "price": 140}`,
	`{"objectID": "d1", "name": "Trail runner", "popularity": 7, "price": 120,
		"description": "A light shoe for rocky trails with a grippy sole and a breathable mesh upper made for long days out"}`,
}

// typoRecords hold one word each that a typo rule is about.
var typoRecords = []string{
	`{"objectID": "toe", "name": "Toe socks"}`,
	`{"objectID": "gpu", "name": "GeForce RTX 4060"}`,
	`{"objectID": "shoes", "name": "Shoes"}`,
	`{"objectID": "boot", "name": "Boot rack"}`,
	`{"objectID": "blanket", "name": "Blanket"}`,
	`{"objectID": "notebook", "name": "Notebook"}`,
	`{"objectID": "controller", "name": "Controller"}`,
	`{"objectID": "lamp", "name": "Lamp shade"}`,
	`{"objectID": "mug", "name": "Beer mug", "brand": "Kaltenberg"}`,
}

var typoSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 2}, {Path: "brand", Weight: 1}},
	TypoTolerance: &searchv1alpha1.TypoTolerance{DisableOnFields: []searchv1alpha1.FieldPath{"brand"},
		DisableOnWords: []string{"lamb"}},
}

var synonymRecords = []string{
	`{"objectID": "s1", "name": "Samsung smartphone"}`,
	`{"objectID": "s2", "name": "Nokia mobile"}`,
	`{"objectID": "s3", "name": "Phone case"}`,
	`{"objectID": "s4", "name": "Television set 55 inch", "description": "A television set with a remote, four ports and a stand for the living room"}`,
	`{"objectID": "s5", "name": "Adidas sneakers"}`,
	`{"objectID": "s6", "name": "TV stand"}`,
}

var synonymSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 2}, {Path: "description", Weight: 1}},
}
