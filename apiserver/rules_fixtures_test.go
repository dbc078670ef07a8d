package apiserver_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// The search service of every replica tells the time of rules' validity windows by this
// clock: specs set it instead of waiting for a window.
var (
	rulesClockMu sync.Mutex
	rulesClockAt *time.Time
)

func rulesNow() time.Time {
	rulesClockMu.Lock()
	defer rulesClockMu.Unlock()
	if rulesClockAt != nil {
		return *rulesClockAt
	}
	return time.Now()
}

// setRulesClock sets the rules' clock to at until the spec ends.
func setRulesClock(at time.Time) {
	rulesClockMu.Lock()
	rulesClockAt = &at
	rulesClockMu.Unlock()
	DeferCleanup(func() {
		rulesClockMu.Lock()
		rulesClockAt = nil
		rulesClockMu.Unlock()
	})
}

// merchSettings: brand, inStock and price filterable, popularity the custom ranking.
var merchSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "inStock", "price"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
}

// merchRecords: two walnut desks that match "walnut desk" exactly (d2 the more popular)
// and one with a typo (d3, the most popular); lamps, a phone and a case the text of
// "walnut desk" does not match.
var merchRecords = []string{
	`{"objectID": "d1", "name": "Walnut desk", "brand": "Oak", "popularity": 10, "inStock": true, "price": 300}`,
	`{"objectID": "d2", "name": "Walnut desk", "brand": "Pine", "popularity": 50, "inStock": true, "price": 250}`,
	`{"objectID": "d3", "name": "Walnut dezk", "brand": "Pine", "popularity": 99, "inStock": true, "price": 200}`,
	`{"objectID": "l1", "name": "Brass lamp", "brand": "Oak", "popularity": 70, "inStock": true, "price": 80}`,
	`{"objectID": "l2", "name": "Paper lamp", "brand": "Pine", "popularity": 20, "inStock": false, "price": 30}`,
	`{"objectID": "c1", "name": "Phone case", "brand": "Acme", "popularity": 30, "inStock": true, "price": 15}`,
}

// ruledResult is the part of a search answer the rules specs read.
type ruledResult struct {
	Hits []struct {
		ObjectID string         `json:"objectID"`
		Record   map[string]any `json:"record"`
		Promoted bool           `json:"promoted"`
		// Highlights are the fields with the words marked (a value, or a list of them).
		Highlights map[string]any `json:"highlights"`
		Ranking    map[string]any `json:"ranking"`
	} `json:"hits"`
	Total        int64             `json:"total"`
	AppliedRules []string          `json:"appliedRules"`
	UserData     []json.RawMessage `json:"userData"`
}

func (r ruledResult) ids() []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ObjectID)
	}
	return out
}

// ruledSearch sends a keyed search; the answer is checked against the OpenAPI document.
func ruledSearch(ci catalogIndex, body string) ruledResult {
	GinkgoHelper()
	r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var res ruledResult
	Expect(json.Unmarshal(r.body, &res)).To(Succeed())
	return res
}

// putRules replaces the index's rules with rules (JSON objects).
func putRules(ci catalogIndex, rules ...string) {
	GinkgoHelper()
	body := `{"rules": [`
	for i, r := range rules {
		if i > 0 {
			body += ","
		}
		body += r
	}
	r := call(0, http.MethodPut, ci.base+"/rules", ci.writeKey, []byte(body+`]}`))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
}
