package httpapi

import (
	"errors"
	"testing"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// FuzzParseBulk checks the NDJSON bulk parser never panics and rejects bad bodies with an
// ES 4xx error. `go test` runs the seed corpus below.
func FuzzParseBulk(f *testing.F) {
	seeds := []string{
		"{\"index\":{\"_index\":\"a\",\"_id\":\"1\"}}\n{\"f\":1}\n",
		"{\"create\":{\"_index\":\"a\"}}\n{\"f\":1}\n{\"delete\":{\"_index\":\"a\",\"_id\":\"2\"}}\n",
		"{\"index\":{\"_index\":\"a\",\"_id\":\"\"}}\n{}\n",
		"{\"index\":{\"_id\":\"1\",\"if_seq_no\":1}}\n{}\n",
		"{\"update\":{\"_index\":\"a\",\"_id\":\"1\"}}\n{\"doc\":{}}\n",
		"{}\n", "{\"index\":{}}\n", "not json\n", "{\"index\":{\"_index\":5}}\n{}\n",
		"{\"index\":{},\"create\":{}}\n{}\n", "{\"delete\":{\"_index\":\"a\"}}\n", "",
		// Lines the fastjson path takes or hands over to encoding/json.
		"{\"index\":{\"_id\":\"a\",\"_id\":null}}\n{}\n", "{\"index\":{\"_id\":12,\"if_seq_no\":null}}\n{}\n",
		"{\"index\":{\"require_alias\":\"yes\"}}\n{}\n", "{\"index\":{\"_id\":\"x\",\"extra\":[1]}}\n{\"a\":01}\n",
		"{\"index\":{\"_id\":\"1\"}}\n{\"a\":\"\xff\"}\n",
	}
	for _, s := range seeds {
		f.Add(s, "")
	}
	f.Add("{\"index\":{}}\n{\"a\":1}\n", "default")
	f.Fuzz(func(t *testing.T, body, index string) {
		items, err := parseBulk([]byte(body), index, false)
		if err != nil {
			var e *eserr.Error
			if !errors.As(err, &e) || e.Status != 400 {
				t.Fatalf("non-400 error for %q: %v", body, err)
			}
			return
		}
		for _, it := range items {
			if it.action != "index" && it.action != "create" && it.action != "delete" && it.action != "update" {
				t.Fatalf("unexpected action %q", it.action)
			}
		}
	})
}
