package engine_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// significant_terms scores each term of a bucket's documents (the foreground) against
// the index (the background): doc_count and bg_count of each term and of the whole, and
// the heuristic's score; ES docs: "Significant terms aggregation".
var _ = Describe("significant_terms", Ordered, func() {
	var orders, more string
	const mapping = `{"mappings":{"properties":{"products":{"type":"keyword"},"shop":{"type":"keyword"},"n":{"type":"long"},"x":{"type":"double"}}}}`
	BeforeAll(func() {
		orders, more = uniqueIndex("sig"), uniqueIndex("sig-more")
		loadIndex(orders, mapping, []string{
			`{"products":["phone","case"],"shop":"a","n":1}`,
			`{"products":["phone","case"],"shop":"a","n":1}`,
			`{"products":["phone","case","milk"],"shop":"a","n":2}`,
			`{"products":["phone","milk"],"shop":"b","n":2}`,
			`{"products":["milk"],"shop":"b","n":2}`,
			`{"products":["milk"],"shop":"b","n":2}`,
			`{"products":["milk","bread"],"shop":"b","n":3}`,
			`{"products":["case"],"shop":"b","n":3}`,
		})
		loadIndex(more, mapping, []string{`{"products":["phone","case"],"shop":"c"}`, `{"products":["phone"],"shop":"c"}`})
	})

	It("scores the bucket's terms with percentage: the share of the term's documents in the foreground", func() {
		aggs := searchAggs(orders, `{"size":0,"query":{"term":{"products":"phone"}},
			"aggs":{"with":{"significant_terms":{"field":"products","percentage":{},"min_doc_count":1,"exclude":["phone"]}}}}`)
		Expect(string(aggs["with"])).To(MatchJSON(`{"doc_count":4,"bg_count":8,"buckets":[
			{"key":"case","doc_count":3,"score":0.75,"bg_count":4},
			{"key":"milk","doc_count":2,"score":0.4,"bg_count":5}]}`))
	})

	It("keeps terms with min_doc_count documents (3 by default) that score above zero (JLH by default)", func() {
		aggs := searchAggs(orders, `{"size":0,"query":{"term":{"products":"phone"}},"aggs":{"with":{"significant_terms":{"field":"products"}}}}`)
		// case: 3 of 4 against 4 of 8 rises; milk (2 of 4 against 5 of 8) falls.
		Expect(string(aggs["with"])).To(MatchJSON(`{"doc_count":4,"bg_count":8,"buckets":[
			{"key":"phone","doc_count":4,"score":1,"bg_count":4},
			{"key":"case","doc_count":3,"score":0.375,"bg_count":4}]}`))
	})

	It("scores each bucket of a parent aggregation against the same background", func() {
		aggs := searchAggs(orders, `{"size":0,"aggs":{"shops":{"terms":{"field":"shop"},"aggs":{"sig":{"significant_terms":{"field":"products","min_doc_count":2,"size":1}}}}}}`)
		// In shop a, phone and case score alike; the tie goes to the lower key.
		Expect(string(aggs["shops"])).To(MatchJSON(`{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
			{"key":"b","doc_count":5,"sig":{"doc_count":5,"bg_count":8,"buckets":[{"key":"milk","doc_count":4,"score":0.22400000000000006,"bg_count":5}]}},
			{"key":"a","doc_count":3,"sig":{"doc_count":3,"bg_count":8,"buckets":[{"key":"case","doc_count":3,"score":1,"bg_count":4}]}}]}`))
	})

	It("takes the background from background_filter", func() {
		aggs := searchAggs(orders, `{"size":0,"query":{"term":{"products":"phone"}},
			"aggs":{"with":{"significant_terms":{"field":"products","percentage":{},"min_doc_count":1,"include":["case"],"background_filter":{"term":{"shop":"a"}}}}}}`)
		Expect(string(aggs["with"])).To(MatchJSON(`{"doc_count":4,"bg_count":3,"buckets":[{"key":"case","doc_count":3,"score":1,"bg_count":3}]}`))
	})

	It("adds up the indices' foregrounds and backgrounds, dropping a shard's terms under shard_min_doc_count", func() {
		body := `{"size":0,"query":{"term":{"products":"phone"}},"aggs":{"with":{"significant_terms":{"field":"products","percentage":{},"min_doc_count":1,"include":["case"]%s}}}}`
		Expect(string(searchAggs(orders+","+more, fmt.Sprintf(body, ""))["with"])).To(MatchJSON(`{"doc_count":6,"bg_count":10,"buckets":[{"key":"case","doc_count":4,"score":0.8,"bg_count":5}]}`))
		Expect(string(searchAggs(orders+","+more, fmt.Sprintf(body, `,"shard_min_doc_count":2`))["with"])).To(MatchJSON(`{"doc_count":6,"bg_count":10,"buckets":[{"key":"case","doc_count":3,"score":0.75,"bg_count":4}]}`))
	})

	It("counts whole-number fields and names the result by its type with typed_keys", func() {
		body := `{"size":0,"query":{"term":{"shop":"b"}},"aggs":{"n":{"significant_terms":{"field":"n","min_doc_count":2}}}}`
		Expect(string(searchAggs(orders, body)["n"])).To(MatchJSON(`{"doc_count":5,"bg_count":8,"buckets":[
			{"key":3,"doc_count":2,"score":0.24000000000000005,"bg_count":2},
			{"key":2,"doc_count":3,"score":0.11999999999999997,"bg_count":4}]}`))
		code, raw, _ := rawDo("POST", "/"+orders+"/_search?typed_keys=true", "application/json", body)
		Expect(code).To(Equal(200), raw)
		Expect(raw).To(ContainSubstring(`"siglterms#n":{`))
	})

	DescribeTable("refuses what Elasticsearch refuses",
		func(agg string, status int, reason string) {
			code, raw, _ := rawDo("POST", "/"+orders+"/_search", "application/json", `{"size":0,"aggs":{"s":{"significant_terms":`+agg+`}}}`)
			Expect(code).To(Equal(status), raw)
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("a misspelled heuristic", `{"field":"products","percentag":{}}`, 400, "[significant_terms] unknown field [percentag] did you mean [percentage]?"),
		Entry("two heuristics", `{"field":"products","jlh":{},"gnd":{}}`, 400, "Found two significance heuristics"),
		Entry("an unknown heuristic parameter", `{"field":"products","gnd":{"include_negatives":true}}`, 400, "[gnd] unknown field [include_negatives]"),
		Entry("a floating point field", `{"field":"x"}`, 400, "No support for examining floating point numerics"),
		Entry("a script heuristic", `{"field":"products","script_heuristic":{}}`, 400, "is not supported by this engine"),
		Entry("a size of 0", `{"field":"products","size":0}`, 400, "[size] must be greater than or equal to 1"),
	)
})
