package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aislehq/aisle/internal/engine/store"
)

var (
	fuzzOnce sync.Once
	fuzzAPI  *API
)

// FuzzHTTP sends arbitrary bodies to the main endpoints and requires an answer that is
// never a 5xx: bad input must get an ES 4xx error. `go test` runs the seeds below.
func FuzzHTTP(f *testing.F) {
	seeds := []struct{ method, path, body string }{
		{"PUT", "/fz", `{"mappings":{"properties":{"n":{"type":"long"},"t":{"type":"text"},"d":{"type":"date"}}}}`},
		{"PUT", "/fz/_doc/1", `{"n":1,"t":"hello world","d":"2024-01-01"}`},
		{"PUT", "/fz/_doc/2?refresh=true", `{"n":"x"}`},
		{"POST", "/fz/_search", `{"query":{"match":{"t":"hello"}},"aggs":{"a":{"terms":{"field":"n"}}}}`},
		{"POST", "/fz/_search", `{"sort":[{"n":"desc"}],"search_after":["a"],"size":-1}`},
		{"POST", "/fz/_search", `{"aggs":{"h":{"date_histogram":{"field":"d","fixed_interval":"1ms"}}}}`},
		{"POST", "/_bulk", "{\"index\":{\"_index\":\"fz\"}}\n{\"n\":2}\n{\"delete\":{\"_index\":\"fz\",\"_id\":\"1\"}}\n"},
		{"POST", "/_aliases", `{"actions":[{"add":{"index":"fz","alias":"fza"}},{"remove_index":{"index":"nope"}}]}`},
		{"PUT", "/fz/_mapping", `{"properties":{"n":{"type":"keyword"}}}`},
		{"PUT", "/fz/_settings", `{"index":{"refresh_interval":"abc"}}`},
		{"POST", "/fz/_delete_by_query", `{"query":{"range":{"d":{"gte":"now-1y/y"}}}}`},
		{"POST", "/_mget", `{"docs":[{"_index":"fz","_id":"1","_source":{"includes":["n"]}}]}`},
		{"POST", "/fz/_count", `{"query":{"bool":{"must_not":{"exists":{"field":"n"}}}}}`},
		{"GET", "/fz/_doc/1?_source_includes=n", ``},
		{"POST", "/fz/_search", `{"collapse":{"field":"n","inner_hits":{"name":"i","size":1,"sort":["d"]}},"post_filter":{"term":{"n":1}}}`},
		{"POST", "/fz/_search", `{"aggs":{"f":{"filters":{"filters":[{"term":{"n":1}}],"other_bucket":true},"aggs":{"t":{"top_hits":{"size":1}}}},
			"g":{"global":{},"aggs":{"s":{"extended_stats":{"field":"n"}}}},"r":{"range":{"field":"n","ranges":[{"to":1}]}},"h":{"histogram":{"field":"n","interval":1}}}}`},
		{"POST", "/fz/_msearch", "{}\n{\"query\":{\"match_all\":{}}}\n{\"index\":\"nope\"}\n{}\n"},
		{"PUT", "/fz/_doc/3?version=2&version_type=external", `{"n":3}`},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.body)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, method, path, body string) {
		fuzzOnce.Do(func() {
			st, err := store.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			fuzzAPI = &API{Store: st, ClusterUUID: "fuzz"}
		})
		switch method {
		case "GET", "PUT", "POST", "DELETE", "HEAD":
		default:
			return
		}
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \n\r\t#") || len(path) > 200 {
			return
		}
		// Deleting everything or creating many indices only slows the fuzzer down.
		if method == "DELETE" && !strings.Contains(path, "_doc") {
			return
		}
		req, err := http.NewRequest(method, path, strings.NewReader(body))
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		fuzzAPI.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: status %d: %s", method, path, body, rec.Code, rec.Body.String())
		}
		if rec.Header().Get("X-Elastic-Product") != "Elasticsearch" {
			t.Fatalf("missing product header")
		}
	})
}
