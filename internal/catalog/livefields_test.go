package catalog

import (
	"encoding/json"
	"testing"

	"github.com/aislehq/aisle/internal/esmapping"
)

// A rebuild's new index maps the fields the settings leave to dynamic mapping as the
// live index does (issue 15, item 7): after {"m": "abc"} then {"m": 5}, m is text in
// the live index, and the copy must not meet 5 first and map it as a long.
func TestAddLiveFieldsKeepsTheLiveTypesOfUndefinedFields(t *testing.T) {
	var live esmapping.Mapping
	if err := json.Unmarshal([]byte(`{"properties": {
		"m": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
		"name": {"type": "keyword"},
		"specs": {"properties": {"color": {"type": "keyword"}, "size": {"type": "long"}}}
	}}`), &live); err != nil {
		t.Fatal(err)
	}
	mappings := map[string]any{"properties": map[string]any{
		"name":  map[string]any{"type": "text"},
		"specs": map[string]any{"properties": map[string]any{"color": map[string]any{"type": "text"}}},
	}}
	if err := addLiveFields(mappings, &live); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(mappings)
	want := `{"properties":{"m":{"fields":{"keyword":{"ignore_above":256,"type":"keyword"}},"type":"text"},` +
		`"name":{"type":"text"},"specs":{"properties":{"color":{"type":"text"},"size":{"type":"long"}}}}}`
	if string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
