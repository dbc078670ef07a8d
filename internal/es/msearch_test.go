package es

import (
	"errors"
	"net/http"
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
