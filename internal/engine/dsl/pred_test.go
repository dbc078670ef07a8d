package dsl_test

import (
	"testing"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Filters made only of terms on keyword and boolean fields, ranges, exists on fields whose
// terms say which documents have them and bool clauses are
// checked from columns; anything else is left to its searcher.
func TestPredicateOf(t *testing.T) {
	cases := []struct {
		query string
		pred  bool
	}{
		{`{"term":{"brand":"acme"}}`, true},
		{`{"term":{"ok":true}}`, true},
		{`{"term":{"stock":3}}`, true},
		{`{"terms":{"brand":["a","b"]}}`, true},
		{`{"range":{"created":{"gte":"2024-01-01"}}}`, true},
		{`{"match_all":{}}`, true},
		{`{"bool":{"must_not":[{"term":{"brand":"a"}}]}}`, true},
		{`{"bool":{"filter":[{"range":{"price":{"lt":5}}}],"should":[{"term":{"brand":"a"}},{"term":{"ok":false}}],"minimum_should_match":1}}`, true},
		{`{"term":{"title":"red"}}`, false},
		{`{"match":{"title":"red"}}`, false},
		{`{"exists":{"field":"sku"}}`, true},
		{`{"bool":{"must_not":[{"exists":{"field":"sku"}}]}}`, true},
		// exists on text, or on a field whose mapping is not known, reads _field_names.
		{`{"exists":{"field":"title"}}`, false},
		{`{"exists":{"field":"brand"}}`, false},
		{`{"bool":{"must_not":[{"match":{"title":"red"}}]}}`, false},
		// Beside a filter, should clauses only score: they do not decide a match.
		{`{"bool":{"filter":[{"term":{"brand":"a"}}],"should":[{"match":{"title":"red"}}]}}`, true},
		{`{"bool":{"should":[{"term":{"brand":"a"}},{"match":{"title":"red"}}]}}`, false},
	}
	c := fuzzContext()
	leaf := c.Leaf
	sku := &mapper.Leaf{Path: "sku", Type: "keyword", Mapped: "keyword", Indexed: true}
	c.Leaf = func(p string) *mapper.Leaf {
		if p == "sku" {
			return sku
		}
		return leaf(p)
	}
	for _, tc := range cases {
		q, err := dsl.Parse([]byte(tc.query), c)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		if got := dsl.PredicateOf(q, c) != nil; got != tc.pred {
			t.Errorf("%s: predicate %v, want %v", tc.query, got, tc.pred)
		}
	}
}
