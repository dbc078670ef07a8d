package httpapi

import (
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/searcher"
)

// knnSearch is the deprecated _knn_search API (ES 8.0-8.3): one kNN search, its filter
// beside it, answered as the search it became, the knn option with size k.
func (a *API) knnSearch(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		body, err := searcher.DecodeBody(q.body)
		if err != nil {
			return 0, nil, err
		}
		knn, ok := body["knn"].(map[string]any)
		if !ok {
			return 0, nil, eserr.Parsing("[knn_search] requires a [knn] object")
		}
		search := map[string]any{}
		for k, v := range body {
			switch k {
			case "knn":
			case "filter":
				knn = withKey(knn, "filter", v)
			case "fields", "_source":
				search[k] = v
			default:
				return 0, nil, eserr.Parsing("[knn_search] unknown field [%s]", k)
			}
		}
		search["knn"] = knn
		if k, ok := knn["k"]; ok {
			search["size"] = k
		}
		sr, err := searcher.ParseBody(search)
		if err != nil {
			return 0, nil, err
		}
		return a.runSearch(q, expr, sr)
	}
}

// withKey is a copy of m with key set to v.
func withKey(m map[string]any, key string, v any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, x := range m {
		out[k] = x
	}
	out[key] = v
	return out
}
