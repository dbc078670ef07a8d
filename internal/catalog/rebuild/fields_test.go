package rebuild

import (
	"encoding/json"
	"testing"

	"github.com/aislehq/aisle/internal/esmapping"
)

// The fields a rebuild's target lacks are the source's, at every depth, as the source
// maps them (issue 15, item 7: after {"m": "abc"} then {"m": 5}, m is text in the source,
// and the copy must not meet 5 first and map it as a long); the settings' own
// definitions in the target stay.
func TestMissingFieldsAreTheSourcesAtEveryDepth(t *testing.T) {
	live := mappingOf(t, `{"properties": {
		"m": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
		"name": {"type": "keyword"},
		"specs": {"properties": {"color": {"type": "keyword"}, "size": {"type": "long"}}}
	}}`)
	have := mappingOf(t, `{"properties": {"name": {"type": "text"}, "specs": {"properties": {"color": {"type": "text"}}}}}`)
	missing, err := missingFields(have, live)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(missing)
	want := `{"m":{"fields":{"keyword":{"ignore_above":256,"type":"keyword"}},"type":"text"},"specs":{"properties":{"size":{"type":"long"}}}}`
	if string(got) != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func mappingOf(t *testing.T, raw string) *esmapping.Mapping {
	t.Helper()
	var m esmapping.Mapping
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatal(err)
	}
	return &m
}
