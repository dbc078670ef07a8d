package searchquery_test

import (
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("A search's spec", func() {
	grouping := settings
	grouping.Distinct = &searchv1alpha1.DistinctSetting{Field: "brand", Limit: 1}
	grouping.Embedders = map[string]searchv1alpha1.Embedder{"use": {Source: "userProvided", Dimensions: 3}}
	keyed := searchquery.KeyedAccess(grouping)

	DescribeTable("is decided once from the request, the settings and the mapping",
		func(body string, page searchquery.Window, grouped bool, query string) {
			spec, err := searchquery.Decide(decode(body), keyed, schema)
			Expect(err).NotTo(HaveOccurred())
			Expect(spec.Page).To(Equal(page))
			Expect(spec.Grouped()).To(Equal(grouped))
			Expect(spec.Query()).To(Equal(query))
			Expect(spec.Drop()).To(BeZero())
		},
		Entry("a search without paging asks for the first 20 hits, grouped by the setting",
			`{"q": "shoe"}`, searchquery.Window{From: 0, Size: 20}, true, "shoe"),
		Entry("offset and limit are its page", `{"q": "shoe", "offset": 40, "limit": 10}`,
			searchquery.Window{From: 40, Size: 10}, true, "shoe"),
		Entry("distinct false does not group", `{"distinct": false}`,
			searchquery.Window{From: 0, Size: 20}, false, ""),
		Entry("distinct 0 does not group either", `{"q": "bag", "distinct": 0}`,
			searchquery.Window{From: 0, Size: 20}, false, "bag"),
	)

	DescribeTable("refuses what the request breaks, naming each place in one error",
		func(body string, want []string) {
			_, err := searchquery.Decide(decode(body), keyed, schema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("a limit and a facet", `{"limit": 0, "facets": ["price"]}`,
			[]string{"limit: must be between 1 and 100", `facets[0]: "price" is not a facet field`}),
		Entry("a filter and a vector", `{"filters": {"field": "color", "eq": "red"}, "vector": [1, 0, 0]}`,
			[]string{`filters.field: "color" is not a filterable field`, "vector: needs hybrid"}),
	)

	// Every input that reaches the body at once: the rules' filters, hides, pins and
	// boosts, a hybrid clause pre-filtered by them, a grouping, a facet and a selection.
	decided := func() searchquery.Spec {
		spec, err := searchquery.Decide(decode(`{"q": "red leather shoe", "matchingStrategy": "all", "facets": ["brand"],
			"facetFilters": {"inStock": [true]}, "filters": {"field": "price", "range": {"lt": 100}},
			"hybrid": {"embedder": "use", "semanticRatio": 0.5}, "vector": [1, 0, 0]}`), keyed, schema)
		Expect(err).NotTo(HaveOccurred())
		return spec.With(searchquery.Inputs{RuleChanges: &searchquery.RuleChanges{
			Filters:  []any{map[string]any{"term": map[string]any{"brand.keyword": "acme"}}},
			Hide:     []string{"h"},
			Promoted: []string{"p"},
			Boost:    []searchquery.Weighted{{Query: map[string]any{"term": map[string]any{"inStock": true}}, Weight: 2}},
		}})
	}
	compiled := func(spec searchquery.Spec) searchquery.Plan {
		plan, err := searchquery.Compile(spec)
		Expect(err).NotTo(HaveOccurred())
		return plan
	}

	DescribeTable("compiles to the same bodies however often, whatever else was compiled from it",
		func(between func(searchquery.Spec) searchquery.Spec) {
			spec := decided()
			first := compiled(spec)
			other := compiled(between(spec))
			Expect(other.Bodies.Search).NotTo(MatchJSON(first.Bodies.Search), "the step between compiles something else")
			again := compiled(spec)
			Expect(again.Bodies).To(Equal(first.Bodies), "every body, byte for byte")
			Expect(again.Shaping.Organic).To(Equal(first.Shaping.Organic))
		},
		Entry("a retry without the last word", func(s searchquery.Spec) searchquery.Spec { return s.Dropping(1) }),
		Entry("the window a page near the end needs",
			func(s searchquery.Spec) searchquery.Spec { return s.Windowed(searchquery.Window{From: 3, Size: 17}) }),
		Entry("the rules' rewrite of the query", func(s searchquery.Spec) searchquery.Spec { return s.WithQuery("boot") }),
	)

	It("searches a rules' rewrite of the query as if the shopper had asked it", func() {
		spec, err := searchquery.Decide(decode(`{"q": "sneaker", "facets": ["brand"]}`), keyed, schema)
		Expect(err).NotTo(HaveOccurred())
		asked, err := searchquery.Build(decode(`{"q": "running shoe", "facets": ["brand"]}`), keyed, schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(compiled(spec.WithQuery("running shoe")).Bodies.Search).To(MatchJSON(asked.Bodies.Search))
	})

	It("moves the organic window only of a search the rules change", func() {
		spec, err := searchquery.Decide(decode(`{"q": "shoe"}`), keyed, schema)
		Expect(err).NotTo(HaveOccurred())
		w := searchquery.Window{From: 5, Size: 10}
		Expect(compiled(spec.Windowed(w)).Shaping.Organic).To(Equal(spec.Page))
		pinned := spec.With(searchquery.Inputs{RuleChanges: &searchquery.RuleChanges{Promoted: []string{"p"}}})
		Expect(compiled(pinned.Windowed(w)).Shaping.Organic).To(Equal(w))
		Expect(compiled(pinned).Shaping.Organic).To(Equal(spec.Page))
	})
})
