package engine_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// _msearch runs several searches in one request and answers their responses in order;
// one that fails answers its error in its place without failing the others.
var _ = Describe("Multi-search", Ordered, func() {
	var idx string
	BeforeAll(func() {
		idx = uniqueIndex("msearch")
		loadCatalog(idx)
	})

	msearch := func(path, body string) (int, map[string]any) {
		code, raw, _ := rawDo("POST", path, "application/x-ndjson", body)
		var out map[string]any
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed(), raw)
		return code, out
	}

	It("answers each search in order, a failed one with its error and status in place", func() {
		code, out := msearch("/"+idx+"/_msearch?typed_keys=true",
			"{}\n"+`{"query":{"term":{"brand":"acme"}},"aggs":{"n":{"value_count":{"field":"brand"}}}}`+"\n"+
				`{"index":"missing-index"}`+"\n{}\n"+
				`{"index":"`+idx+`"}`+"\n"+`{"size":1,"collapse":{"field":"brand"},"sort":[{"price":"asc"}]}`+"\n")
		Expect(code).To(Equal(200))
		responses := out["responses"].([]any)
		Expect(responses).To(HaveLen(3))
		first := responses[0].(map[string]any)
		Expect(first["status"]).To(BeNumerically("==", 200))
		Expect(first["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", BeNumerically("==", 2)))
		Expect(first["aggregations"]).To(HaveKey("value_count#n"))
		failed := responses[1].(map[string]any)
		Expect(failed["status"]).To(BeNumerically("==", 404))
		Expect(failed["error"]).To(HaveKeyWithValue("type", "index_not_found_exception"))
		Expect(hitsOf(responses[2].(map[string]any))[0]["_id"]).To(Equal("1"))
	})

	DescribeTable("fails the whole request on what ES reads before searching",
		func(path, body, reason string) {
			code, out := msearch(path, body)
			Expect(code).To(Equal(400))
			Expect(out["error"]).To(HaveKeyWithValue("reason", ContainSubstring(reason)))
		},
		Entry("a body it cannot parse", "/_msearch", "{}\n{\"bogus\":1}\n", "Unknown key for a VALUE_NUMBER in [bogus]"),
		Entry("a header key ES does not take", "/_msearch", "{\"size\":1}\n{}\n", "key [size] is not supported in the metadata section"),
		Entry("no trailing newline", "/_msearch", "{}\n{}", "must be terminated by a newline"),
		Entry("no search", "/_msearch", "\n", "request body or source parameter is required"),
		Entry("inexact totals as integers", "/_msearch?rest_total_hits_as_int=true", "{}\n{\"track_total_hits\":10}\n",
			"[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got 10"),
		Entry("max_concurrent_searches below 1", "/_msearch?max_concurrent_searches=0", "{}\n{}\n", "maxConcurrentSearches must be positive"),
		Entry("a parameter outside its specification", "/_msearch?routing=1", "{}\n{}\n", "contains unrecognized parameter: [routing]"),
	)
})
