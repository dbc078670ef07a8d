package catalog

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/aislehq/aisle/internal/strictjson"
)

// The record endpoints' validators: a body decoded as the API decodes it is either
// refused with ErrInvalid (a 400) or valid; nothing panics. Seeds are in
// testdata/fuzz/<target>.

func FuzzValidateRecords(f *testing.F) {
	f.Add([]byte(`{"records": [{"objectID": "a", "n": 1}, {"objectID": "b", "aisleVersion": 3}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req struct {
			Records *[]json.RawMessage `json:"records"`
		}
		if strictjson.Decode(body, &req) != nil || req.Records == nil {
			return
		}
		recs, err := ValidateRecords(*req.Records, 1, MaxPostRecords)
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", body, err)
		}
		for _, r := range recs {
			if r.ID == "" || !json.Valid(withVersion(r.Raw, 7)) {
				t.Fatalf("%q: a valid record without an id or that cannot carry its version", body)
			}
		}
	})
}

func FuzzValidateConditional(f *testing.F) {
	f.Add([]byte(`{"operation": "upsert", "objectID": "a", "record": {"objectID": "a"}, "expectedVersion": 0, "idempotencyKey": "k"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req ConditionalRequest
		if strictjson.Decode(body, &req) != nil {
			return
		}
		if _, err := ValidateConditional(req); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", body, err)
		}
	})
}
