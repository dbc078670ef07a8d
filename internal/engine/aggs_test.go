package engine_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Aggregations are collected in one pass over the matches, keyed by bucket, and reduced
// across segments and indices by value (ES's shard-level collection and coordinating
// reduce). These specs hold the reduce to what ES answers.
var _ = Describe("Aggregations over several segments and indices", Ordered, func() {
	const mapping = `{"mappings":{"properties":{"brand":{"type":"keyword"},"price":{"type":"double"},"created":{"type":"date"}}}}`
	var a, b string

	// Two refreshes give index a two segments, so the same brand is a term of each.
	BeforeAll(func() {
		a, b = uniqueIndex("agga"), uniqueIndex("aggb")
		loadIndex(a, mapping, []string{
			`{"brand":"acme","price":10,"created":"2024-01-01T08:00:00Z"}`,
			`{"brand":"zoom","price":20,"created":"2024-01-02T08:00:00Z"}`,
		})
		bulkRefreshed(a, `{"index":{"_id":"3"}}`, `{"brand":"acme","price":30,"created":"2024-01-02T09:00:00Z"}`,
			`{"index":{"_id":"4"}}`, `{"price":5,"created":"2024-01-03T10:00:00Z"}`)
		loadIndex(b, mapping, []string{
			`{"brand":"acme","price":100,"created":"2024-01-03T11:00:00Z"}`,
			`{"brand":"none","price":1}`,
		})
	})

	// ES docs: "Terms aggregation" > "Missing value": documents without the field are
	// counted as if they had the missing value, so they share its bucket.
	const body = `{"size":0,"aggs":{"brands":{"terms":{"field":"brand","missing":"none"},"aggs":{
		"total":{"sum":{"field":"price"}},
		"cheap":{"filter":{"range":{"price":{"lt":25}}},"aggs":{"days":{"date_histogram":{"field":"created","calendar_interval":"day","min_doc_count":1}}}}}}}}`

	It("merges a term's buckets and sub-aggregations across segments", func() {
		Expect(string(searchAggs(a, body)["brands"])).To(MatchJSON(`{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
			{"key":"acme","doc_count":2,"total":{"value":40},"cheap":{"doc_count":1,"days":{"buckets":[
				{"key_as_string":"2024-01-01T00:00:00.000Z","key":1704067200000,"doc_count":1}]}}},
			{"key":"none","doc_count":1,"total":{"value":5},"cheap":{"doc_count":1,"days":{"buckets":[
				{"key_as_string":"2024-01-03T00:00:00.000Z","key":1704240000000,"doc_count":1}]}}},
			{"key":"zoom","doc_count":1,"total":{"value":20},"cheap":{"doc_count":1,"days":{"buckets":[
				{"key_as_string":"2024-01-02T00:00:00.000Z","key":1704153600000,"doc_count":1}]}}}]}`))
	})

	It("reduces across indices, the missing value joining the bucket of the same term", func() {
		Expect(string(searchAggs(a+","+b, body)["brands"])).To(MatchJSON(`{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
			{"key":"acme","doc_count":3,"total":{"value":140},"cheap":{"doc_count":1,"days":{"buckets":[
				{"key_as_string":"2024-01-01T00:00:00.000Z","key":1704067200000,"doc_count":1}]}}},
			{"key":"none","doc_count":2,"total":{"value":6},"cheap":{"doc_count":2,"days":{"buckets":[
				{"key_as_string":"2024-01-03T00:00:00.000Z","key":1704240000000,"doc_count":1}]}}},
			{"key":"zoom","doc_count":1,"total":{"value":20},"cheap":{"doc_count":1,"days":{"buckets":[
				{"key_as_string":"2024-01-02T00:00:00.000Z","key":1704153600000,"doc_count":1}]}}}]}`))
	})

	It("answers hits and aggregations of several indices together, and the total without hits", func() {
		code, raw, _ := rawDo("POST", "/"+a+","+b+"/_search", "application/json",
			`{"size":2,"sort":[{"price":"desc"}],"query":{"range":{"price":{"gte":10}}},"aggs":{"n":{"cardinality":{"field":"brand"}}}}`)
		Expect(code).To(Equal(200), raw)
		Expect(raw).To(ContainSubstring(`"total":{"relation":"eq","value":4}`))
		Expect(raw).To(ContainSubstring(`"aggregations":{"n":{"value":2}}`))
		Expect(strings.Count(raw, `"_id"`)).To(Equal(2))
		code, raw, _ = rawDo("POST", "/"+a+","+b+"/_search", "application/json",
			`{"size":0,"query":{"range":{"price":{"gte":10}}},"aggs":{"n":{"cardinality":{"field":"brand"}}}}`)
		Expect(code).To(Equal(200), raw)
		Expect(raw).To(ContainSubstring(`"total":{"relation":"eq","value":4}`))
		Expect(raw).To(ContainSubstring(`"hits":[]`))
	})
})

// bulkRefreshed sends _bulk lines to index and refreshes, making a new segment.
func bulkRefreshed(index string, lines ...string) {
	code, raw, _ := rawDo("POST", "/"+index+"/_bulk?refresh=true", "application/x-ndjson", strings.Join(lines, "\n")+"\n")
	Expect(code).To(Equal(200), raw)
	Expect(raw).To(ContainSubstring(`"errors":false`))
}

// A filter aggregation counts the documents of its scope that match its filter: what a
// count of both queries together answers. Filters made of term, range and bool clauses
// are checked from columns, the others by stepping their searcher; both must agree
// with the query path, also when the filter sits under a terms bucket.
var _ = Describe("Filter aggregations", Ordered, func() {
	var idx string
	BeforeAll(func() {
		idx = uniqueIndex("aggf")
		loadCatalog(idx)
		bulkRefreshed(idx, `{"index":{"_id":"7"}}`, `{"title":"Camping Stove","brand":"acme","category":"sport","price":60,"stock":3,"created":"2024-04-01T00:00:00Z","tags":["cooking","trail"]}`)
	})

	DescribeTable("agree with a count of the filter within the search's query",
		func(filter string) {
			scope := `{"range":{"price":{"gte":20}}}`
			code, raw, _ := rawDo("POST", "/"+idx+"/_count", "application/json",
				`{"query":{"bool":{"filter":[`+scope+`,`+filter+`]}}}`)
			Expect(code).To(Equal(200), raw)
			var want struct{ Count int }
			Expect(json.Unmarshal([]byte(raw), &want)).To(Succeed())
			aggs := searchAggs(idx, `{"size":0,"query":`+scope+`,"aggs":{"f":{"filter":`+filter+`},
				"brands":{"terms":{"field":"brand"},"aggs":{"f":{"filter":`+filter+`}}}}}`)
			var top struct {
				DocCount int `json:"doc_count"`
			}
			Expect(json.Unmarshal(aggs["f"], &top)).To(Succeed())
			Expect(top.DocCount).To(Equal(want.Count))
			var brands struct {
				Buckets []struct {
					F struct {
						DocCount int `json:"doc_count"`
					} `json:"f"`
				}
			}
			Expect(json.Unmarshal(aggs["brands"], &brands)).To(Succeed())
			sum := 0
			for _, b := range brands.Buckets {
				sum += b.F.DocCount
			}
			Expect(sum).To(Equal(want.Count), "the filter under the brand buckets")
		},
		Entry("a keyword term", `{"term":{"brand":"acme"}}`),
		Entry("a keyword term no document has", `{"term":{"brand":"nobody"}}`),
		Entry("terms", `{"terms":{"tags":["run","gift"]}}`),
		Entry("a numeric term", `{"term":{"stock":10}}`),
		Entry("a date range", `{"range":{"created":{"gte":"2024-02-15","lt":"2024-04-01"}}}`),
		Entry("bool must_not alone", `{"bool":{"must_not":[{"term":{"category":"sport"}},{"term":{"tags":"gift"}}]}}`),
		Entry("bool filter and must_not", `{"bool":{"filter":[{"range":{"price":{"lt":200}}}],"must_not":{"term":{"brand":"zoom"}}}}`),
		Entry("bool should with minimum_should_match 2", `{"bool":{"should":[{"term":{"tags":"cooking"}},{"term":{"brand":"acme"}},{"term":{"category":"sport"}}],"minimum_should_match":2}}`),
		Entry("bool should alone, one of which must match", `{"bool":{"should":[{"term":{"brand":"zoom"}},{"term":{"tags":"gift"}}]}}`),
		Entry("match_all", `{"match_all":{}}`),
		Entry("a text match, stepped by its searcher", `{"match":{"title":"running shoes"}}`),
		Entry("exists, stepped by its searcher", `{"exists":{"field":"tags"}}`),
		Entry("bool mixing a predicate and a text match", `{"bool":{"must":[{"match":{"description":"trail"}}],"filter":[{"term":{"brand":"zoom"}}]}}`),
	)
})

// ES's shard request cache keeps the aggregations of searches that ask for no hits, per
// index and refresh: a repeated search is a lookup, and anything a refresh makes visible
// (a write, a delete, a delete by query) shows in the next answer, on every index of a
// search over several.
var _ = Describe("The request cache", Ordered, func() {
	const body = `{"size":0,"aggs":{"brands":{"terms":{"field":"brand"}},"total":{"sum":{"field":"price"}}}}`
	var a, b string
	brands := func(indices string) string {
		aggs := searchAggs(indices, body)
		return string(aggs["brands"]) + string(aggs["total"])
	}
	write := func(index, path, doc string) {
		code, raw, _ := rawDo("PUT", "/"+index+path+"?refresh=wait_for", "application/json", doc)
		Expect(code).To(BeNumerically("<", 300), raw)
	}

	BeforeAll(func() {
		a, b = uniqueIndex("rca"), uniqueIndex("rcb")
		mapping := `{"mappings":{"properties":{"brand":{"type":"keyword"},"price":{"type":"double"}}}}`
		loadIndex(a, mapping, []string{`{"brand":"acme","price":1}`, `{"brand":"zoom","price":2}`})
		loadIndex(b, mapping, []string{`{"brand":"acme","price":4}`})
	})

	It("answers a repeated search as the first time", func() {
		first := brands(a + "," + b)
		Expect(brands(a + "," + b)).To(Equal(first))
		Expect(first).To(ContainSubstring(`{"doc_count":2,"key":"acme"}`))
	})

	It("shows a refreshed write, delete and delete by query in the next answer", func() {
		write(b, "/_doc/9", `{"brand":"zoom","price":8}`)
		Expect(brands(a + "," + b)).To(And(ContainSubstring(`{"doc_count":2,"key":"zoom"}`), ContainSubstring(`"value":15`)))
		code, raw, _ := rawDo("DELETE", "/"+b+"/_doc/9?refresh=wait_for", "", "")
		Expect(code).To(Equal(200), raw)
		Expect(brands(a + "," + b)).To(And(ContainSubstring(`{"doc_count":1,"key":"zoom"}`), ContainSubstring(`"value":7`)))
		code, raw, _ = rawDo("POST", "/"+a+"/_delete_by_query?refresh=true", "application/json", `{"query":{"term":{"brand":"acme"}}}`)
		Expect(code).To(Equal(200), raw)
		Expect(brands(a)).To(Equal(`{"buckets":[{"doc_count":1,"key":"zoom"}],"doc_count_error_upper_bound":0,"sum_other_doc_count":0}{"value":2}`))
	})

	It("does not show a write before the refresh that makes it visible", func() {
		before := brands(a)
		code, raw, _ := rawDo("PUT", "/"+a+"/_doc/10", "application/json", `{"brand":"new","price":1}`)
		Expect(code).To(Equal(201), raw)
		Expect(brands(a)).To(Equal(before))
		code, raw, _ = rawDo("POST", "/"+a+"/_refresh", "", "")
		Expect(code).To(Equal(200), raw)
		Expect(brands(a)).To(ContainSubstring(`"key":"new"`))
	})
})
