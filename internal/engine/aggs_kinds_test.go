package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The metric, range, histogram and top_hits aggregations collect per segment and
// reduce across segments and indices as the terms aggregation does: these specs search
// two indices, one of them in two segments, and hold the answers to ES's.
var _ = Describe("Metric, range, histogram and top_hits aggregations", Ordered, func() {
	const mapping = `{"mappings":{"properties":{"brand":{"type":"keyword"},"price":{"type":"double"},"created":{"type":"date"}}}}`
	var a, b string

	BeforeAll(func() {
		a, b = uniqueIndex("kinda"), uniqueIndex("kindb")
		loadIndex(a, mapping, []string{`{"brand":"acme","price":10,"created":"2024-01-01T00:00:00Z"}`, `{"brand":"zoom","price":20}`})
		bulkRefreshed(a, `{"index":{"_id":"3"}}`, `{"brand":"acme","price":30}`, `{"index":{"_id":"4"}}`, `{"brand":"acme"}`)
		loadIndex(b, mapping, []string{`{"brand":"acme","price":40}`})
	})
	both := func() string { return a + "," + b }

	It("sums up values with avg, stats, extended_stats and value_count", func() {
		aggs := searchAggs(both(), `{"size":0,"aggs":{"avg":{"avg":{"field":"price"}},"stats":{"stats":{"field":"price"}},
			"ext":{"extended_stats":{"field":"price","sigma":1}},"n":{"value_count":{"field":"brand"}},
			"withMissing":{"avg":{"field":"price","missing":0}},"none":{"stats":{"field":"nope"}}}}`)
		Expect(string(aggs["avg"])).To(MatchJSON(`{"value":25}`))
		Expect(string(aggs["stats"])).To(MatchJSON(`{"count":4,"min":10,"max":40,"avg":25,"sum":100}`))
		Expect(string(aggs["n"])).To(MatchJSON(`{"value":5}`))
		Expect(string(aggs["withMissing"])).To(MatchJSON(`{"value":20}`), "the document without a price counts as 0")
		Expect(string(aggs["none"])).To(MatchJSON(`{"count":0,"min":null,"max":null,"avg":null,"sum":0}`))
		Expect(string(aggs["ext"])).To(MatchJSON(`{"count":4,"min":10,"max":40,"avg":25,"sum":100,"sum_of_squares":3000,
			"variance":125,"variance_population":125,"variance_sampling":166.66666666666666,
			"std_deviation":11.180339887498949,"std_deviation_population":11.180339887498949,"std_deviation_sampling":12.909944487358056,
			"std_deviation_bounds":{"upper":36.180339887498945,"lower":13.819660112501051,"upper_population":36.180339887498945,
			"lower_population":13.819660112501051,"upper_sampling":37.909944487358054,"lower_sampling":12.090055512641944}}`))
	})

	It("buckets by range, sorted by from then to, with sub-aggregations and keys", func() {
		aggs := searchAggs(both(), `{"size":0,"aggs":{"r":{"range":{"field":"price","ranges":[{"from":25},{"key":"low","to":25},{"from":15,"to":35}]},
			"aggs":{"brands":{"value_count":{"field":"brand"}}}}}}`)
		Expect(string(aggs["r"])).To(MatchJSON(`{"buckets":[
			{"key":"low","to":25,"doc_count":2,"brands":{"value":2}},
			{"key":"15.0-35.0","from":15,"to":35,"doc_count":2,"brands":{"value":2}},
			{"key":"25.0-*","from":25,"doc_count":2,"brands":{"value":2}}]}`))
	})

	It("buckets by histogram, with empty buckets between and to the extended bounds", func() {
		aggs := searchAggs(both(), `{"size":0,"aggs":{"h":{"histogram":{"field":"price","interval":15,"offset":5,"extended_bounds":{"min":-20}}}}}`)
		Expect(string(aggs["h"])).To(MatchJSON(`{"buckets":[{"key":-25,"doc_count":0},{"key":-10,"doc_count":0},{"key":5,"doc_count":1},
			{"key":20,"doc_count":2},{"key":35,"doc_count":1}]}`))
		code, raw, _ := rawDo("POST", "/"+a+"/_search", "application/json", `{"size":0,"aggs":{"h":{"histogram":{"field":"price","interval":1e-9}}}}`)
		Expect(code).To(Equal(400), raw)
		Expect(raw).To(ContainSubstring("Trying to create too many buckets. Must be less than or equal to: [65536]"))
	})

	It("keeps the best hits of each bucket across indices, by sort, from and size", func() {
		aggs := searchAggs(both(), `{"size":0,"aggs":{"brands":{"terms":{"field":"brand"},"aggs":{"top":{"top_hits":{
			"size":2,"from":1,"sort":[{"price":{"order":"desc"}}],"_source":["price"]}}}}}}`)
		Expect(string(aggs["brands"])).To(MatchJSON(`{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
			{"key":"acme","doc_count":4,"top":{"hits":{"total":{"value":4,"relation":"eq"},"max_score":null,"hits":[
				{"_index":"` + a + `","_id":"3","_score":null,"_source":{"price":30},"sort":[30]},
				{"_index":"` + a + `","_id":"1","_score":null,"_source":{"price":10},"sort":[10]}]}}},
			{"key":"zoom","doc_count":1,"top":{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[]}}}]}`))
	})

	It("ranks top_hits by score without a sort, and scores a search for aggregations only", func() {
		aggs := searchAggs(a, `{"size":0,"query":{"bool":{"should":[{"term":{"brand":{"value":"zoom","boost":3}}},{"term":{"brand":"acme"}}]}},
			"aggs":{"top":{"top_hits":{"size":1,"_source":false}}}}`)
		Expect(string(aggs["top"])).To(ContainSubstring(`"_id":"2"`))
		Expect(string(aggs["top"])).NotTo(ContainSubstring(`"max_score":null`))
	})
})
