package engine_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A faceted search page with disjunctive facets asks ES for the hits of every selection
// (post_filter) and, per facet, the counts under the other facets' selections (a filter
// aggregation around a terms aggregation): the counts of a facet ignore its own
// selection, so a shopper who picked a brand still sees the other brands. These specs
// hold the engine to the counts a count of each combination gives.
var _ = Describe("Faceted search with post_filter and filtered aggregations", Ordered, func() {
	var idx string
	BeforeAll(func() {
		idx = uniqueIndex("facets")
		loadCatalog(idx)
		bulkRefreshed(idx, `{"index":{"_id":"7"}}`, `{"title":"Camping Stove","brand":"acme","category":"sport","price":60,"stock":3,"created":"2024-04-01T00:00:00Z","tags":["cooking","trail"]}`)
	})

	count := func(query string) float64 {
		code, raw, _ := rawDo("POST", "/"+idx+"/_count", "application/json", `{"query":`+query+`}`)
		Expect(code).To(Equal(200), raw)
		var out struct{ Count float64 }
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
		return out.Count
	}
	const brands = `{"terms":{"brand":["acme","zoom"]}}`
	const sport = `{"term":{"category":"sport"}}`

	It("narrows the hits and their total, not the aggregations", func() {
		resp := searchRaw(idx, `{"post_filter":`+brands+`,"aggs":{"all":{"value_count":{"field":"category"}}}}`)
		Expect(resp["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", count(brands)))
		Expect(resp["aggregations"]).To(HaveKeyWithValue("all", HaveKeyWithValue("value", BeNumerically("==", 7))))
	})

	It("counts each facet under the other facets' selections", func() {
		body := `{"size":3,"query":{"range":{"price":{"gte":20}}},"post_filter":{"bool":{"filter":[` + brands + `,` + sport + `]}},
			"aggs":{"brand":{"filter":` + sport + `,"aggs":{"v":{"terms":{"field":"brand"}}}},
			        "category":{"filter":` + brands + `,"aggs":{"v":{"terms":{"field":"category"}}}},
			        "price":{"stats":{"field":"price"}}}}`
		resp := searchRaw(idx, body)
		scope := `{"range":{"price":{"gte":20}}}`
		all := `{"bool":{"filter":[` + scope + `,` + brands + `,` + sport + `]}}`
		Expect(resp["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", count(all)))
		aggs := resp["aggregations"].(map[string]any)
		for _, b := range aggs["brand"].(map[string]any)["v"].(map[string]any)["buckets"].([]any) {
			bucket := b.(map[string]any)
			want := count(`{"bool":{"filter":[` + scope + `,` + sport + `,{"term":{"brand":"` + bucket["key"].(string) + `"}}]}}`)
			Expect(bucket["doc_count"]).To(Equal(want), bucket["key"])
		}
		for _, b := range aggs["category"].(map[string]any)["v"].(map[string]any)["buckets"].([]any) {
			bucket := b.(map[string]any)
			want := count(`{"bool":{"filter":[` + scope + `,` + brands + `,{"term":{"category":"` + bucket["key"].(string) + `"}}]}}`)
			Expect(bucket["doc_count"]).To(Equal(want), bucket["key"])
		}
		Expect(aggs["price"]).To(HaveKeyWithValue("count", count(scope)), "stats see every match of the query")
	})

	It("keeps the post_filter in the totals of a search for aggregations only", func() {
		resp := searchRaw(idx, `{"size":0,"post_filter":`+sport+`,"aggs":{"n":{"value_count":{"field":"brand"}}}}`)
		Expect(resp["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", count(sport)))
		Expect(resp["aggregations"]).To(HaveKeyWithValue("n", HaveKeyWithValue("value", BeNumerically("==", 7))))
	})

	It("answers filters buckets, named, anonymous and other, with sub-aggregations", func() {
		aggs := searchAggs(idx, `{"size":0,"aggs":{
			"named":{"filters":{"other_bucket_key":"rest","filters":{"zoom":{"term":{"brand":"zoom"}},"cheap":{"range":{"price":{"lt":50}}}}},
				"aggs":{"avg":{"avg":{"field":"price"}}}},
			"anon":{"filters":{"other_bucket":true,"filters":[{"term":{"brand":"acme"}},{"match":{"title":"shoes"}}]}}}}`)
		Expect(string(aggs["named"])).To(MatchJSON(`{"buckets":{
			"cheap":{"doc_count":2,"avg":{"value":35.25}},
			"zoom":{"doc_count":2,"avg":{"value":104.95}},
			"rest":{"doc_count":3,"avg":{"value":236.33333333333334}}}}`))
		Expect(string(aggs["anon"])).To(MatchJSON(`{"buckets":[{"doc_count":3},{"doc_count":2},{"doc_count":2}]}`))
	})

	It("answers a global aggregation over every document, whatever the query", func() {
		aggs := searchAggs(idx, `{"size":0,"query":`+sport+`,"aggs":{"everything":{"global":{},"aggs":{"brands":{"terms":{"field":"brand","size":1}}}}}}`)
		Expect(string(aggs["everything"])).To(MatchJSON(`{"doc_count":7,"brands":{"doc_count_error_upper_bound":0,"sum_other_doc_count":4,"buckets":[{"key":"acme","doc_count":3}]}}`))
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"aggs":{"t":{"terms":{"field":"brand"},"aggs":{"g":{"global":{}}}}}}`)
		Expect(code).To(Equal(400), raw)
		Expect(raw).To(ContainSubstring("Global aggregations can only be defined as top level aggregations"))
	})
})
