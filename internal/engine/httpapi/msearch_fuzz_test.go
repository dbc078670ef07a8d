package httpapi

import (
	"errors"
	"net/url"
	"testing"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// FuzzParseMsearch checks the msearch NDJSON reader never panics and refuses bad bodies
// with an ES 400. `go test` runs the seed corpus below.
func FuzzParseMsearch(f *testing.F) {
	seeds := []string{
		"{}\n{}\n", "{\"index\":\"a\"}\n{\"query\":{\"match_all\":{}}}\n", "{\"index\":[\"a\",\"b\"],\"ignore_unavailable\":true}\n{}\n",
		"\n{}\n", "{}\n", "{}", "", "{\"size\":1}\n{}\n", "not json\n{}\n", "{\"index\":5}\n{}\n{}\n",
		"{\"expand_wildcards\":[\"open\",\"closed\"]}\n{\"size\":0}\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		items, err := parseMsearch([]byte(body), "default", url.Values{"typed_keys": {"true"}})
		if err != nil {
			var e *eserr.Error
			if !errors.As(err, &e) || e.Status != 400 {
				t.Fatalf("non-400 error for %q: %v", body, err)
			}
			return
		}
		if len(items) == 0 {
			t.Fatalf("no search and no error for %q", body)
		}
	})
}
