package searchquery_test

import (
	"strings"
	"testing"

	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// FuzzExplain: any explain value either decodes into true, false or an objectID of 1 to
// 512 bytes that is written back as it was read, or is refused naming explain; nothing
// panics.
func FuzzExplain(f *testing.F) {
	for _, seed := range []string{`true`, `false`, `null`, `{"objectID": "sku-1"}`, `{"objectID": 5}`, `{"objectID": ""}`,
		`{}`, `{"objectID": "a", "b": 1}`, `"x"`, `[1]`, `{"objectID": "\u00e9"}`, `{"objectID": null}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, explain string) {
		var req searchquery.Request
		err := strictjson.Decode([]byte(`{"explain": `+explain+`}`), &req)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "invalid JSON body: ") {
				t.Fatalf("unexpected error for %q: %v", explain, err)
			}
			return
		}
		e := req.Explain
		if e.ObjectID != "" && (!e.On || len(e.ObjectID) > searchquery.MaxObjectIDBytes) {
			t.Fatalf("%q decoded into %+v", explain, e)
		}
		out, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var again searchquery.Explain
		if err := again.UnmarshalJSON(out); err != nil || again != e {
			t.Fatalf("%q: %s reads back as %+v (%v), not %+v", explain, out, again, err, e)
		}
	})
}
