package indexsettings

import (
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/strictjson"
)

// FuzzCheck: PUT /config's local rules name each problem of any decodable settings and
// never panic; deduplicated settings have no duplicate to name. Seeds are in
// testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"searchableFields": [{"path": "name", "weight": 3}], "synonyms": [{"terms": ["a", "b"]}], "language": "english"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var s searchv1alpha1.IndexSettings
		if strictjson.Decode(body, &s) != nil {
			return
		}
		for _, p := range Check(s, "aisleVersion") {
			if p.String() == "" {
				t.Fatalf("%q: a problem without a message", body)
			}
		}
		_ = Check(Dedupe(s), "aisleVersion")
	})
}
