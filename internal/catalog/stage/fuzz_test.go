package stage

import (
	"errors"
	"testing"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/strictjson"
)

// The commit endpoint's validator: a body decoded as the API decodes it is either
// refused with catalog.ErrInvalid (a 400) or valid; nothing panics.

func FuzzValidateCommit(f *testing.F) {
	f.Add([]byte(`{"expectedBatches": 2, "expectedRecords": 1500}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req CommitRequest
		if strictjson.Decode(body, &req) != nil {
			return
		}
		batches, records, err := ValidateCommit(req)
		if err != nil && !errors.Is(err, catalog.ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", body, err)
		}
		if err == nil && (batches < 0 || records < 0) {
			t.Fatalf("%q: accepted negative counts", body)
		}
	})
}
