package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/esmapping"
)

// Records the backend would refuse are refused before anything is written, so they take
// no revision, with the reason in the contract's words (issue 15 audit): field names
// Elasticsearch refuses, objects nested past its depth limit, numbers its field types
// cannot hold.
func TestCheckRecordsRefusesWhatTheBackendWould(t *testing.T) {
	var m esmapping.Mapping
	if err := json.Unmarshal([]byte(`{"properties": {"price": {"type": "float"}, "stock": {"type": "long"}}}`), &m); err != nil {
		t.Fatal(err)
	}
	deep := func(n int) string { return strings.Repeat(`{"a": `, n) + "1" + strings.Repeat("}", n) }
	for record, want := range map[string]string{
		`{"objectID": "r", "": 1}`:                         `records[0]: field names may not be empty`,
		`{"objectID": "r", "a.": 1}`:                       `records[0]: field "a.": a field name may not start or end with '.' nor hold '..'`,
		`{"objectID": "r", "x": {"..": 1}}`:                `records[0]: field "x...": a field name may not start or end with '.' nor hold '..'`,
		`{"objectID": "r", "_id": "x"}`:                    `records[0]: field "_id" is reserved for the search backend's metadata`,
		`{"objectID": "r", "_source": {}}`:                 `records[0]: field "_source" is reserved for the search backend's metadata`,
		`{"objectID": "r", "x": {"_id": 1}}`:               ``,
		`{"objectID": "r", "_meta": 1}`:                    ``,
		`{"objectID": "r", "d": ` + deep(19) + `}`:         ``,
		`{"objectID": "r", "d": ` + deep(20) + `}`:         `records[0]: field "d.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a": objects nest at most 20 levels deep (index.mapping.depth.limit)`,
		`{"objectID": "r", "stock": 92233720368547758070}`: `records[0]: field "stock": 92233720368547758070 cannot be indexed as long: out of range`,
		`{"objectID": "r", "n": -92233720368547758070}`:    `records[0]: field "n": -92233720368547758070 cannot be indexed as long: out of range`,
		`{"objectID": "r", "stock": 9223372036854775807}`:  ``,
		`{"objectID": "r", "stock": 1e19}`:                 `records[0]: field "stock": 1e19 cannot be indexed as long: out of range`,
		`{"objectID": "r", "stock": 9.2e18}`:               ``,
		`{"objectID": "r", "price": 1e39}`:                 `records[0]: field "price": 1e39 cannot be indexed as float: out of range`,
		`{"objectID": "r", "f": 1e308}`:                    `records[0]: field "f": 1e308 cannot be indexed as float: out of range`,
		`{"objectID": "r", "price": 3.4e38}`:               ``,
	} {
		recs := []Record{{ID: "r", Raw: json.RawMessage(record)}}
		got := ""
		if err := checkRecords(&m, recs, true); err != nil {
			got = strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")
		}
		if got != want {
			t.Errorf("%.60s:\n got %q\nwant %q", record, got, want)
		}
	}
}
