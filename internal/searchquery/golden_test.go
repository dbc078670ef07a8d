package searchquery_test

import (
	"bytes"
	"encoding/json"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Golden bodies: what a search sends, byte for byte, for the searches of the benchmarks
// and for those whose bodies take the most steps to build. Regenerate with AISLE_GOLDEN=1
// when a body changes on purpose.
var _ = Describe("Golden bodies", func() {
	// The settings and schema of test/searchbench (and the side-by-side benchmark against
	// Lucene).
	s := searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
		FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"},
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
		SortableFields:   []searchv1alpha1.FieldPath{"price"},
		CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
	}
	bench := searchquery.Schema{
		"brand":      {Path: "brand", Kind: searchquery.KindString, Type: "text", Keyword: "brand.keyword"},
		"price":      {Path: "price", Kind: searchquery.KindNumber, Type: "long", Keyword: "price"},
		"popularity": {Path: "popularity", Kind: searchquery.KindNumber, Type: "long", Keyword: "popularity"},
	}

	It("sends the body of a typical two-word search in testdata/two-words.json", func() {
		plan, err := searchquery.Build(decode(`{"q": "leathr wallet", "limit": 20, "facets": ["brand"],
		"filters": {"field": "price", "range": {"lt": 400}}}`), searchquery.KeyedAccess(s), bench)
		Expect(err).NotTo(HaveOccurred())
		expectGolden("testdata/two-words.json", plan.Bodies.Search)
	})

	It("sends every body of grouped, promoted, hidden, highlighted and hybrid searches in testdata/bodies.json", func() {
		grouped := s
		grouped.FacetFields = []searchv1alpha1.FieldPath{"brand", "price"}
		grouped.Distinct = &searchv1alpha1.DistinctSetting{Field: "group", Limit: 1}
		grouped.Embedders = map[string]searchv1alpha1.Embedder{"use": {Source: "userProvided", Dimensions: 3}}
		withGroups := searchquery.Schema{"group": {Path: "group", Kind: searchquery.KindString, Type: "keyword", Keyword: "group"},
			"name":        {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"},
			"description": {Path: "description", Kind: searchquery.KindString, Type: "text", Keyword: "description.keyword"}}
		for path, f := range bench {
			withGroups[path] = f
		}
		rules := &searchquery.RuleChanges{Promoted: []string{"p1", "p2"}, Hide: []string{"h"},
			Boost: []searchquery.Weighted{{Query: map[string]any{"term": map[string]any{"brand.keyword": "acme"}}, Weight: 2}}}
		public := searchquery.PublicAccess(grouped, searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand"}})
		cases := []struct {
			name, request string
			access        searchquery.Access
			rules         *searchquery.RuleChanges
		}{
			{"grouped, promoted and hidden, with snippets and facetFilters", `{"q": "leathr wallet", "limit": 5, "offset": 2, "facets": ["brand", "price"],
			"facetFilters": {"brand": ["acme", "zenith"]}, "snippets": [{"field": "description", "words": 8}], "distinct": 2, "variantsLimit": 3}`,
				searchquery.KeyedAccess(grouped), rules},
			{"grouped without words, sorted, promoted", `{"sort": [{"field": "price", "order": "desc"}], "facets": ["brand"], "fields": ["name"]}`,
				searchquery.KeyedAccess(grouped), rules},
			{"explained hybrid, grouped, promoted", `{"q": "red wallet", "explain": true, "fields": ["name"], "hybrid": {"embedder": "use", "semanticRatio": 0.5},
			"vector": [1, 0, 0], "filters": {"or": [{"field": "brand", "eq": "acme"}, {"field": "price", "range": {"lt": 40}}]}}`,
				searchquery.KeyedAccess(grouped), rules},
			{"public, without rules or groups", `{"q": "wallet", "distinct": false, "facets": ["brand"]}`, public, nil},
		}
		got := map[string]map[string]json.RawMessage{}
		for _, c := range cases {
			plan, err := searchquery.BuildWith(decode(c.request), c.access, withGroups, searchquery.Inputs{RuleChanges: c.rules})
			Expect(err).NotTo(HaveOccurred(), c.name)
			got[c.name] = bodiesOf(plan)
		}
		raw, err := json.Marshal(got)
		Expect(err).NotTo(HaveOccurred())
		expectGolden("testdata/bodies.json", raw)
	})
})

// bodiesOf are the bodies a plan sends, by name, each as sent.
func bodiesOf(plan searchquery.Plan) map[string]json.RawMessage {
	out := map[string]json.RawMessage{"search": plan.Bodies.Search}
	if plan.Bodies.Pinned != nil {
		out["pinned"] = plan.Bodies.Pinned
	}
	if m := plan.Bodies.Merge; m != nil {
		out["grouped"], out["single"] = m.Grouped, m.Single
	}
	return out
}

// expectGolden checks raw, indented, against the golden file (writing it first with
// AISLE_GOLDEN set).
func expectGolden(file string, raw []byte) {
	var pretty bytes.Buffer
	Expect(json.Indent(&pretty, raw, "", "  ")).To(Succeed())
	pretty.WriteString("\n")
	if os.Getenv("AISLE_GOLDEN") != "" {
		Expect(os.WriteFile(file, pretty.Bytes(), 0o644)).To(Succeed())
	}
	want, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	Expect(pretty.String()).To(Equal(string(want)))
}
