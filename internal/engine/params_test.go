package engine_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ES answers a query parameter its endpoint does not take with 400
// illegal_argument_exception "request [<path>] contains unrecognized parameter: [x]"
// (BaseRestHandler.unrecognized); the engine must, so that a client tested against it does
// not send what ES refuses.
var _ = Describe("Query parameters", func() {
	var idx string
	BeforeEach(func() {
		idx = uniqueIndex("params")
		code, _, _ := rawDo("PUT", "/"+idx, "application/json", `{}`)
		Expect(code).To(Equal(200))
	})

	refusal := func(method, path, body string) (int, map[string]any) {
		code, raw, _ := rawDo(method, path, "application/json", body)
		var out map[string]any
		Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed(), raw)
		return code, out
	}

	DescribeTable("refuses a parameter its endpoint does not take, in ES's words",
		func(method, path, body, reason string) {
			path = "/" + idx + path
			code, out := refusal(method, path, body)
			Expect(code).To(Equal(400))
			Expect(out).To(HaveKeyWithValue("status", BeEquivalentTo(400)))
			cause := SatisfyAll(HaveKeyWithValue("type", "illegal_argument_exception"),
				HaveKeyWithValue("reason", "request ["+strings.SplitN(path, "?", 2)[0]+"] contains unrecognized "+reason))
			Expect(out["error"]).To(SatisfyAll(cause, HaveKeyWithValue("root_cause", ConsistOf(cause))))
		},
		Entry("an unknown one on _search", "GET", "/_search?foo=1", "", "parameter: [foo]"),
		Entry("a query option on _search", "POST", "/_search?prefix_length=2", `{}`, "parameter: [prefix_length]"),
		Entry("several, sorted", "GET", "/_search?zeta=1&alpha=2", "", "parameters: [alpha], [zeta]"),
		Entry("master_timeout where no master is asked", "GET", "/_search?master_timeout=1s", "", "parameter: [master_timeout]"),
		Entry("timeout on _count", "GET", "/_count?timeout=1s", "", "parameter: [timeout]"),
		Entry("timeout on a read", "GET", "/_doc/1?timeout=1s", "", "parameter: [timeout]"),
		Entry("an index option on a delete", "DELETE", "/_doc/1?op_type=create", "", "parameter: [op_type]"),
		Entry("a pipeline on a delete", "DELETE", "/_doc/1?pipeline=p", "", "parameter: [pipeline]"),
		Entry("timeout on _refresh", "POST", "/_refresh?timeout=1s", "", "parameter: [timeout]"),
		Entry("an unknown one on an alias write", "PUT", "/_alias/a?foo=1", "", "parameter: [foo]"),
	)

	DescribeTable("takes the parameters of the endpoint's API",
		func(method, path, body string) {
			code, out := refusal(method, "/"+idx+path, body)
			Expect(code).To(BeNumerically("<", 300), "%v", out)
		},
		Entry("the common ones", "GET", "/_search?pretty&human=true&error_trace=false&filter_path=hits", ""),
		Entry("timeout on _search", "GET", "/_search?timeout=1s", ""),
		Entry("timeouts on a mapping update", "PUT", "/_mapping?master_timeout=30s&timeout=30s", `{"properties":{"a":{"type":"keyword"}}}`),
		Entry("timeouts on a settings update", "PUT", "/_settings?master_timeout=30s&timeout=30s", `{"index":{"number_of_replicas":0}}`),
		Entry("timeout on a write", "PUT", "/_doc/1?timeout=1m&refresh=true", `{"a":"x"}`),
		Entry("timeouts on an alias write", "PUT", "/_alias/al?master_timeout=30s&timeout=30s", ""),
		Entry("timeout on a bulk", "POST", "/_bulk?timeout=1m", "{\"index\":{}}\n{\"a\":\"y\"}\n"),
	)
})
