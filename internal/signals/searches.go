package signals

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
)

// SearchLog counts queries' searches in the index's search log (internal/searchlog,
// which keeps them as clicks keep their query): the Searches of a Refresher.
func SearchLog(client *elasticsearch.TypedClient) func(context.Context, esnames.Index, []string) (map[string]int64, error) {
	return func(ctx context.Context, names esnames.Index, queries []string) (map[string]int64, error) {
		list := make([]any, len(queries))
		for i, q := range queries {
			list[i] = q
		}
		body := obj{"size": 0, "query": obj{"terms": obj{"query": list}}, "aggs": obj{"q": terms("query", len(queries))}}
		raw, err := esread.Search(ctx, client, names.SearchesPattern(), body)
		if err != nil {
			return nil, err
		}
		var ans struct {
			Aggs struct {
				Q struct {
					Buckets []bucket `json:"buckets"`
				} `json:"q"`
			} `json:"aggregations"`
		}
		if err := json.Unmarshal(raw, &ans); err != nil {
			return nil, fmt.Errorf("decoding search counts: %w", err)
		}
		out := make(map[string]int64, len(ans.Aggs.Q.Buckets))
		for _, b := range ans.Aggs.Q.Buckets {
			out[fmt.Sprint(b.Key)] = b.DocCount
		}
		return out, nil
	}
}
