package indexsettings

import (
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// FuzzCheck: PUT /config's local rules (its own and against the records' shapes) name
// each problem of any decodable settings and never panic. Seeds are in
// testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"searchableFields": [{"path": "name", "weight": 3}], "synonyms": [{"terms": ["a", "b"]}], "language": "english"}`))
	f.Add([]byte(`{"suggestions": {"minDays": 0, "exclude": ["Crème", "creme", "two words", ""]}}`))
	f.Add([]byte(`{"facetFields": ["brand"], "facetOrdering": {"facets": {"order": ["brand", "*", "x"]}, "values": {"brand": {"order": ["a", "a"], "sortRemainingBy": "z", "hide": ["a", ""]}}}}`))
	f.Add([]byte(`{"embedders": {"bge": {"source": "openAI", "model": "bge", "dimensions": 384, "sendDimensions": true, "documentTemplate": "{{title}}"}, "u": {"source": "userProvided", "dimensions": 3, "sendDimensions": true}}}`))
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
		for _, p := range CheckShapes(s, fuzzSchema) {
			if p.Message == "" {
				t.Fatalf("%q: a shape problem without a message", body)
			}
		}
	})
}

// fuzzSchema holds an object, a field under it and a value, so paths meet every rule.
var fuzzSchema = searchquery.Schema{
	"name":       {Path: "name", Kind: searchquery.KindString, Type: "text"},
	"specs.size": {Path: "specs.size", Kind: searchquery.KindNumber, Type: "long"},
	"empty":      {Path: "empty", Kind: searchquery.KindOther, Type: "object"},
}
