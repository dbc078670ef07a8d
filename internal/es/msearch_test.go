package es

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

// An _msearch body is a header and a body line per search.
func TestMsearchBody(t *testing.T) {
	body, err := MsearchBody([]string{"a", "b"}, [][]byte{[]byte(`{"size":1}`), []byte(" {\"size\":2}\n")})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"index\":\"a\"}\n{\"size\":1}\n{\"index\":\"b\"}\n{\"size\":2}\n"; string(body) != want {
		t.Fatalf("body %q, want %q", body, want)
	}
}

// An _msearch answer gives each search's answer in order, or its own failure,
// classified; a whole answer that does not hold one per search is ErrUnavailable.
func TestMsearchItems(t *testing.T) {
	answers, errs, err := MsearchItems(4, answer(200, `{"took":1,"responses":[
		{"hits":{"hits":[]},"status":200},
		{"error":{"type":"search_phase_execution_exception","reason":"bad"},"status":400},
		{"error":{"type":"index_not_found_exception","reason":"no"},"status":404},
		{"error":{"type":"x","reason":"down"},"status":503}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var esErr *types.ElasticsearchError
	switch {
	case len(answers) != 4 || errs[0] != nil:
		t.Fatalf("answers %q, errors %v", answers, errs)
	case !errors.As(errs[1], &esErr) || esErr.Status != http.StatusBadRequest:
		t.Fatalf("a 400: %v", errs[1])
	case !errors.Is(errs[2], ErrNotFound):
		t.Fatalf("a 404: %v, want ErrNotFound", errs[2])
	case !errors.Is(errs[3], ErrUnavailable):
		t.Fatalf("a 503: %v, want ErrUnavailable", errs[3])
	}
	if _, _, err := MsearchItems(2, answer(200, `{"responses":[{"status":200}]}`), nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("one response for two searches: %v, want ErrUnavailable", err)
	}
	if _, _, err := MsearchItems(1, answer(500, `{"error":{"type":"x"},"status":500}`), nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a 500: %v, want ErrUnavailable", err)
	}
}

// Only a response's own error member fails it: a record may hold fields named error and
// status; answers are given as they came, and an answer that is not JSON, or whose
// responses are not objects, is ErrUnavailable.
func TestMsearchItemsReadsTopLevelMembersOnly(t *testing.T) {
	hit := `{"hits":{"hits":[{"_source":{"error":{"type":"x"},"status":500,"name":"oak"}}]},"error":null, "status":200}`
	answers, errs, err := MsearchItems(2, answer(200, "{\"responses\" : [\n "+hit+" ,\n"+hit+"]}"), nil)
	if err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatalf("errors %v, %v", err, errs)
	}
	if string(answers[0]) != hit || string(answers[1]) != hit {
		t.Fatalf("answers %q", answers)
	}
	for _, bad := range []string{`{"responses":[`, `{"responses":[1]}`, `{"responses":{}}`, `[]`, `{"responses":[{"status":"x"}]}`} {
		if _, _, err := MsearchItems(1, answer(200, bad), nil); !errors.Is(err, ErrUnavailable) {
			t.Errorf("%s: %v, want ErrUnavailable", bad, err)
		}
	}
}

// FuzzMsearchItems: whatever the backend answers, reading it never panics, and each
// answer given is a JSON value.
func FuzzMsearchItems(f *testing.F) {
	f.Add(`{"took":1,"responses":[{"hits":{"hits":[]},"status":200},{"error":{"type":"x"},"status":400}]}`)
	f.Add(`{"responses":[{"status":200,"error":null}]}`)
	f.Fuzz(func(t *testing.T, body string) {
		answers, _, err := MsearchItems(1, answer(200, body), nil)
		if err == nil && !json.Valid(answers[0]) {
			t.Fatalf("answer %q of %q is not JSON", answers[0], body)
		}
	})
}

// BenchmarkMsearchItems reads the answer to a search with promoted records: a page of
// 20 hits of about 1 KB with their highlights, and the promoted record's.
func BenchmarkMsearchItems(b *testing.B) {
	hit := `{"_index":"i","_id":"sku-1","_score":null,"_source":{"objectID":"sku-1","name":"oak desk","description":"` +
		strings.Repeat("walnut desk with oak legs ", 28) + `"},"highlight":{"description":["` + strings.Repeat("<em>oak</em> desk ", 40) + `"]},"sort":[1,2,"sku-1"]}`
	page := `{"took":3,"hits":{"total":{"value":1200,"relation":"eq"},"hits":[` + strings.Repeat(hit+",", 19) + hit + `]},"aggregations":{"f0":{"buckets":[]}},"status":200}`
	body := `{"took":3,"responses":[{"took":1,"hits":{"hits":[` + hit + `]},"status":200},` + page + `]}`
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := MsearchItems(2, answer(200, body), nil); err != nil {
			b.Fatal(err)
		}
	}
}
