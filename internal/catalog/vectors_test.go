package catalog

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/esmapping"
)

// A record's vectors are checked against its index's embedders before anything is
// written: the embedder named, the dimensions, numbers with a direction.
func TestCheckRecordsChecksVectorsAgainstTheEmbedders(t *testing.T) {
	var m esmapping.Mapping
	if err := json.Unmarshal([]byte(`{"properties": {"_vectors": {"properties": {
		"use": {"type": "dense_vector", "dims": 3, "similarity": "cosine"}}}}}`), &m); err != nil {
		t.Fatal(err)
	}
	for record, want := range map[string]string{
		`{"objectID": "r", "_vectors": {"use": [0.1, 0.2, -0.3]}}`: ``,
		`{"objectID": "r", "_vectors.use": [1, 0, 0]}`:             ``,
		`{"objectID": "r", "_vectors": {"use": null}}`:             ``,
		`{"objectID": "r", "_vectors": {"use": [0.1, 0.2]}}`:       `records[0]: field "_vectors.use" (embedder "use"): must be 3 numbers (the embedder's dimensions), got 2`,
		`{"objectID": "r", "_vectors": {"use": [1, "x", 0]}}`:      `records[0]: field "_vectors.use" (embedder "use"): [1] is "x", not a number`,
		`{"objectID": "r", "_vectors": {"use": [0, 0, 0]}}`:        `records[0]: field "_vectors.use" (embedder "use"): must not be all zeros (a cosine needs a direction)`,
		`{"objectID": "r", "_vectors": {"use": [1, 1e39, 0]}}`:     `records[0]: field "_vectors.use" (embedder "use"): [1] is out of range for a float`,
		`{"objectID": "r", "_vectors": {"use": 1}}`:                `records[0]: field "_vectors.use" (embedder "use"): must be an array of 3 numbers`,
		`{"objectID": "r", "_vectors": {"bert": [1, 2, 3]}}`:       `records[0]: field "_vectors.bert": the index has no embedder "bert" (embedders: use)`,
		`{"objectID": "r", "_vectors": [1, 2, 3]}`:                 `records[0]: field "_vectors": must be an object of vectors by embedder`,
	} {
		got := ""
		if err := checkRecords(&m, []Record{{ID: "r", Raw: json.RawMessage(record)}}, true); err != nil {
			got = strings.TrimPrefix(err.Error(), ErrInvalid.Error()+": ")
		}
		if got != want {
			t.Errorf("%.60s:\n got %q\nwant %q", record, got, want)
		}
	}
}

func TestVectorsOfAnEmbedderTheMappingLacksMayMeanAStaleMapping(t *testing.T) {
	err := checkRecords(&esmapping.Mapping{}, []Record{{ID: "r", Raw: json.RawMessage(`{"objectID": "r", "_vectors": {"use": [1]}}`)}}, false)
	if !errors.Is(err, errStale) {
		t.Errorf("got %v, want errStale", err)
	}
	err = checkRecords(&esmapping.Mapping{}, []Record{{ID: "r", Raw: json.RawMessage(`{"objectID": "r", "_vectors": {"use": [1]}}`)}}, true)
	if err == nil || !strings.Contains(err.Error(), `the index has no embedder "use" (embedders: none)`) {
		t.Errorf("got %v", err)
	}
}
