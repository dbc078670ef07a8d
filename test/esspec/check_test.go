package esspec_test

import (
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/esspec"
)

func req(method, target, body string) esspec.Request {
	u, err := url.Parse(target)
	Expect(err).NotTo(HaveOccurred())
	r := esspec.Request{Method: method, Path: u.EscapedPath(), Query: u.Query()}
	if body != "" {
		r.Body = []byte(body)
	}
	return r
}

var _ = Describe("Holding a request to Elasticsearch's REST API specification", func() {
	DescribeTable("takes what Elasticsearch takes",
		func(method, target, body string) {
			Expect(spec.Check(req(method, target, body))).To(Succeed())
		},
		Entry("a search with a query", "POST", "/products/_search?typed_keys=false", `{"query":{"match_all":{}},"size":10,"aggs":{}}`),
		Entry("a search without a body", "GET", "/products/_search", ""),
		Entry("a search on every index", "POST", "/_search?track_total_hits=true", `{"track_total_hits":1000}`),
		Entry("a numeric track_total_hits", "GET", "/products/_search?track_total_hits=500", ""),
		Entry("a list of expand_wildcards options", "GET", "/products/_search?expand_wildcards=open,hidden", ""),
		Entry("a time value", "PUT", "/products?master_timeout=30s&timeout=1m", `{"settings":{},"mappings":{}}`),
		Entry("the common parameters", "GET", "/products/_count?pretty&filter_path=count&error_trace=true", ""),
		Entry("a document", "PUT", "/products/_doc/1?refresh=wait_for", `{"title":"a"}`),
		Entry("reading a document", "GET", "/products/_doc/1", ""),
		Entry("an index existing", "HEAD", "/products", ""),
		Entry("an alias existing, literal beats part", "HEAD", "/_alias/products", ""),
		Entry("a get_alias on an index", "GET", "/products/_alias/live", ""),
		Entry("a bulk", "POST", "/_bulk?refresh=true", "{\"index\":{\"_index\":\"p\",\"_id\":\"1\"}}\n{\"a\":1}\n{\"delete\":{\"_index\":\"p\",\"_id\":\"2\"}}\n\n"),
		Entry("a delete by query", "POST", "/events/_delete_by_query?conflicts=proceed&refresh=true", `{"query":{"range":{"at":{"lt":"now-30d"}}},"max_docs":10}`),
		Entry("an msearch", "POST", "/_msearch", "{\"index\":\"p\"}\n{\"query\":{\"match_all\":{}}}\n"),
		Entry("an alias update", "POST", "/_aliases", `{"actions":[{"add":{"index":"p-1","alias":"p"}}]}`),
		Entry("a bulk whose strings hold quotes and braces", "POST", "/_bulk", "{\"index\":{\"_id\":\"a\\\"},{b\",\"dynamic_templates\":{\"x\":\"y\"}}}\n{\"t\":[1,{\"_type\":2}]}\n"),
		Entry("require_alias on a document, which index.json predates (an allowance)", "PUT", "/products/_doc/1?require_alias=true&op_type=create", `{"a":1}`),
	)

	DescribeTable("refuses what Elasticsearch refuses",
		func(method, target, body, reason string) {
			Expect(spec.Check(req(method, target, body))).To(MatchError(ContainSubstring(reason)))
		},
		Entry("an unknown path", "GET", "/products/_nope/x/y", "", "no API of the specification has the path"),
		Entry("a wrong method", "DELETE", "/products/_search", "", "no API takes method DELETE on /products/_search (allowed: GET, POST)"),
		Entry("an unknown parameter", "GET", "/products/_search?prefix_length=2", "", "[search] unknown query parameter [prefix_length]"),
		Entry("a parameter of another API", "GET", "/products/_search?master_timeout=1s", "", "unknown query parameter [master_timeout]"),
		Entry("an allowance outside its API", "DELETE", "/products/_doc/1?require_alias=true", "", "[delete] unknown query parameter [require_alias]"),
		Entry("an allowance with a bad value", "PUT", "/products/_doc/1?require_alias=maybe", `{}`, "parameter [require_alias] of type boolean does not take [maybe]"),
		Entry("a bad enum value", "PUT", "/products/_doc/1?refresh=later", `{}`, "parameter [refresh] of type enum [true, false, wait_for] does not take [later]"),
		Entry("a bad boolean", "GET", "/products/_search?typed_keys=yes", "", "parameter [typed_keys] of type boolean does not take [yes]"),
		Entry("a bad number", "GET", "/products/_search?size=ten", "", "parameter [size] of type number does not take [ten]"),
		Entry("a time without a unit", "PUT", "/products?timeout=30", `{}`, "parameter [timeout] of type time does not take [30]"),
		Entry("a body where none is taken", "GET", "/products/_doc/1", `{"a":1}`, "[get] takes no body"),
		Entry("a missing required body", "POST", "/events/_delete_by_query", "", "[delete_by_query] requires a body"),
		Entry("malformed JSON", "POST", "/products/_search", `{"query":`, "[search] body is not a JSON object"),
		Entry("a JSON array", "POST", "/products/_search", `[]`, "body is not a JSON object"),
		Entry("a key given twice", "POST", "/products/_search", `{"size":1,"size":2}`, "duplicate field [size]"),
		Entry("an unknown search body key", "POST", "/products/_search", `{"query":{},"prefix_length":2}`, "[search] body key [prefix_length] is not one the API takes"),
		Entry("a count body with more than a query", "POST", "/products/_count", `{"query":{},"size":0}`, "[count] body key [size]"),
		Entry("a delete by query with size", "POST", "/events/_delete_by_query", `{"query":{},"size":10}`, "[delete_by_query] body key [size]"),
		Entry("an index created with an unknown key", "PUT", "/products", `{"settings":{},"mapping":{}}`, "[indices.create] body key [mapping]"),
		Entry("a bulk without the final newline", "POST", "/_bulk", "{\"delete\":{\"_id\":\"1\"}}", "terminated by a newline"),
		Entry("a bulk with an unknown action", "POST", "/_bulk", "{\"upsert\":{\"_id\":\"1\"}}\n{}\n", "line 1: malformed action/metadata line: unknown action [upsert]"),
		Entry("a bulk with unknown metadata", "POST", "/_bulk", "{\"index\":{\"_id\":\"1\",\"_type\":\"doc\"}}\n{}\n", "unknown parameter [_type]"),
		Entry("a bulk line with two actions", "POST", "/_bulk", "{\"index\":{},\"delete\":{}}\n{}\n", "more than one action: [index], [delete]"),
		Entry("a bulk action that is not an object", "POST", "/_bulk", "{\"delete\":1}\n", "the action [delete] is not an object"),
		Entry("a bulk with a broken source", "POST", "/_bulk", "{\"index\":{\"_id\":\"1\"}}\n{\"a\":\n", "line 2: the source is not a JSON object"),
		Entry("a bulk whose last action has no source", "POST", "/_bulk", "{\"index\":{\"_id\":\"1\"}}\n", "the last action has no source line"),
		Entry("an msearch with an unknown body key", "POST", "/_msearch", "{}\n{\"querry\":{}}\n", "line 2: unknown search body key [querry]"),
	)

	It("reads a bulk body line by line, however it is cut", func() {
		api, err := spec.Match("POST", "/_bulk")
		Expect(err).NotTo(HaveOccurred())
		body := "{\"index\":{\"_id\":\"1\"}}\n{\"a\":\"x\"}\n{\"create\":{\"_id\":\"2\"}}\n{\"b\":2}\n"
		for cut := 1; cut < len(body); cut++ {
			c := esspec.NewBodyChecker(api)
			_, _ = c.Write([]byte(body[:cut]))
			_, _ = c.Write([]byte(body[cut:]))
			Expect(c.Verdict()).To(Succeed(), "cut at %d", cut)
		}
	})
})
