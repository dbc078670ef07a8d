package apiserver

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/strictjson"
)

// FuzzBindQueries: a multi-search body is refused whole with a 400, or gives 1 to the
// limit of queries, each of which decodes into a keyed and a public query or is refused
// alone with a 400; nothing panics.
func FuzzBindQueries(f *testing.F) {
	f.Add([]byte(`{"queries": [{"index": "a", "q": "x", "facetFilters": {"brand": ["b"]}, "distinct": 2}, {"publicId": "p"}]}`))
	f.Add([]byte(`{"queries": [[], 1, {"index": 1}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, limit := range []int{MaxQueries, MaxPublicQueries} {
			queries, err := bindQueries(body, limit)
			if err != nil {
				if status, _ := classify(err); status != http.StatusBadRequest {
					t.Fatalf("%q: refused with %d: %v", body, status, err)
				}
				continue
			}
			if len(queries) < 1 || len(queries) > limit {
				t.Fatalf("%q: %d queries bound, limit %d", body, len(queries), limit)
			}
			for _, raw := range queries {
				for _, q := range []any{&keyedQuery{}, &publicQuery{}} {
					if err := strictjson.Decode(raw, q); err != nil {
						if status, _ := classify(err); status != http.StatusBadRequest {
							t.Fatalf("%q: a query refused with %d: %v", raw, status, err)
						}
					}
				}
			}
		}
	})
}

// FuzzParseBrowse: a POST /records/browse body's limit and cursor are refused with a 400
// or read into a page size within bounds and, when a cursor is sent, a cursor a page
// returned; nothing panics.
func FuzzParseBrowse(f *testing.F) {
	cursor := catalog.Cursor{PIT: "p", After: []json.RawMessage{json.RawMessage(`"a"`)}, Alias: "x"}.Encode()
	f.Add([]byte(`{"limit": 10, "cursor": "` + cursor + `"}`))
	f.Add([]byte(`{"limit": 0, "cursor": ""}`))
	f.Add([]byte(`{"filters": {"field": "brand", "eq": "acme"}, "limit": 1e3}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var b browseBody
		if err := strictjson.Decode(body, &b); err != nil {
			if status, _ := classify(err); status != http.StatusBadRequest {
				t.Fatalf("%q: refused with %d: %v", body, status, err)
			}
			return
		}
		limit, cur, err := parseBrowse(b)
		if err != nil {
			if status, _ := classify(err); status != http.StatusBadRequest {
				t.Fatalf("%q: refused with %d: %v", body, status, err)
			}
			return
		}
		if limit < 1 || limit > catalog.MaxExportPage || (b.Cursor != nil) != (cur != nil) {
			t.Fatalf("%q: read as limit %d, cursor %+v", body, limit, cur)
		}
	})
}

// FuzzDecodePreview: a POST /rules/{ruleId}/preview body is refused with a 400, or read
// into a search and, when it holds a draft, a rule whose objectID is the path's; nothing
// panics.
func FuzzDecodePreview(f *testing.F) {
	f.Add([]byte(`{"q": "desk", "explain": {"objectID": "d1"}, "rule": {"conditions": [{"pattern": "desk", "anchoring": "is", "context": "mobile"}], "consequence": {"hide": ["d1"]}}}`))
	f.Add([]byte(`{"q": "", "rule": null}`))
	f.Add([]byte(`{"rule": {"objectID": "other", "consequence": {}}, "colour": 1}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, rule, err := decodePreview(body, "draft")
		if err != nil {
			if status, _ := classify(err); status != http.StatusBadRequest {
				t.Fatalf("%q: refused with %d: %v", body, status, err)
			}
			return
		}
		if rule != nil && rule.ObjectID != "draft" {
			t.Fatalf("%q: a draft read as rule %q, not the path's", body, rule.ObjectID)
		}
	})
}
