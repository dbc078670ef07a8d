package catalog

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aislehq/aisle/internal/esmapping"
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
			if r.ID == "" || !json.Valid(WithVersion(r.Raw, 7)) {
				t.Fatalf("%q: a valid record without an id or that cannot carry its version", body)
			}
		}
	})
}

// FuzzCheckRecords: records checked against a mapping, as a write checks them against
// the live index's before it takes a revision, are either fine or refused with ErrInvalid.
func FuzzCheckRecords(f *testing.F) {
	f.Add([]byte(`{"records": [{"objectID": "a", "stock": 1e19, "price": "x", "d": {"_id": 1}, "n": [1, 2.5, "3"]}]}`))
	f.Add([]byte(`{"records": [{"objectID": "a", "_vectors": {"use": [1, 0.5, -2e300], "bert": null}}, {"objectID": "b", "_vectors.use": [0, 0, 0]}]}`))
	var m esmapping.Mapping
	if err := json.Unmarshal([]byte(`{"properties": {"price": {"type": "float"}, "stock": {"type": "long"}, "tag": {"type": "keyword"}, "at": {"type": "date"}, "o": {"properties": {"h": {"type": "half_float"}}}, "_vectors": {"properties": {"use": {"type": "dense_vector", "dims": 3, "similarity": "cosine"}}}}}`), &m); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req struct {
			Records *[]json.RawMessage `json:"records"`
		}
		if strictjson.Decode(body, &req) != nil || req.Records == nil {
			return
		}
		recs, err := ValidateRecords(*req.Records, 1, MaxPostRecords)
		if err != nil {
			return
		}
		if err := checkRecords(&m, recs, true); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", body, err)
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

// FuzzValidateIdentifiers: an objectID, stageId, batchId or idempotencyKey from a path
// or a body is refused with ErrInvalid or valid; a valid objectID is UTF-8 of 1 to 512
// bytes, a valid key 1 to 64 letters, digits, _ and -.
func FuzzValidateIdentifiers(f *testing.F) {
	for _, s := range []string{"a", "", "a\xffb", "a/b", "..", strings.Repeat("x", 513), "stage-1_A", strings.Repeat("k", 65)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if err := ValidateObjectID("objectID", id); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", id, err)
		} else if err == nil && (id == "" || len(id) > MaxObjectIDBytes || !utf8.ValidString(id)) {
			t.Fatalf("%q: accepted as an objectID", id)
		}
		if err := ValidateKey("stageId", id); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%q: an error that is not a 400: %v", id, err)
		} else if err == nil && (id == "" || len(id) > 64 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "") {
			t.Fatalf("%q: accepted as a key", id)
		}
	})
}

// GET /records' query: refused with ErrInvalid or read into a page size within bounds
// and a cursor a page returned: its checksum holds, it names a snapshot, an alias and
// where the page ended, and it encodes again to a cursor that reads the same.
func FuzzParseExportQuery(f *testing.F) {
	valid := Cursor{PIT: "p1", After: []json.RawMessage{json.RawMessage(`"sku-1"`), json.RawMessage(`"sku-1"`)}, Alias: "aisle-ws-shoes"}.Encode()
	f.Add("", "")
	f.Add("1000", valid)
	f.Add("7", valid[:len(valid)-1])
	f.Add("0", "%%%")
	f.Add("-3", "c2t1LTE")
	f.Fuzz(func(t *testing.T, limit, cursor string) {
		n, cur, err := ParseExportQuery(limit, cursor)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("limit %q cursor %q: %v is not a 400", limit, cursor, err)
			}
			return
		}
		if n < 1 || n > MaxExportPage {
			t.Fatalf("limit %q read as %d", limit, n)
		}
		if cursor == "" {
			if cur != nil {
				t.Fatalf("no cursor read as %+v", cur)
			}
			return
		}
		if cur == nil || cur.PIT == "" || cur.Alias == "" || len(cur.After) == 0 {
			t.Fatalf("cursor %q read as %+v", cursor, cur)
		}
		again, err := DecodeCursor(cur.Encode())
		if err != nil || !reflect.DeepEqual(again, cur) {
			t.Fatalf("cursor %q: %+v encodes to one read as %+v (%v)", cursor, cur, again, err)
		}
	})
}
