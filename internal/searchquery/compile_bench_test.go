package searchquery_test

import (
	"encoding/json"
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// BenchmarkCompile times compiling a search's plan, every body included: a plain
// two-word search, and a grouped one with promoted records, whose plan also holds its
// pinned body and its merge round's two bodies.
func BenchmarkCompile(b *testing.B) {
	grouped := settings
	grouped.Distinct = &searchv1alpha1.DistinctSetting{Field: "groupId", Limit: 1}
	rules := &searchquery.RuleChanges{Promoted: []string{"p1", "p2"}, Hide: []string{"h"}}
	for _, c := range []struct {
		name, request string
		settings      searchv1alpha1.IndexSettings
		rules         *searchquery.RuleChanges
	}{
		{"plain", `{"q": "leathr wallet", "limit": 20, "facets": ["brand"], "filters": {"field": "price", "range": {"lt": 400}}}`, settings, nil},
		{"grouped-pinned", `{"q": "leathr wallet", "limit": 20, "facets": ["brand"], "facetFilters": {"brand": ["acme"]}, "distinct": 2}`, grouped, rules},
	} {
		var req searchquery.Request
		if err := json.Unmarshal([]byte(c.request), &req); err != nil {
			b.Fatal(err)
		}
		spec, err := searchquery.Decide(req, searchquery.KeyedAccess(c.settings), shopSchema)
		if err != nil {
			b.Fatal(err)
		}
		spec = spec.With(searchquery.Inputs{RuleChanges: c.rules})
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := searchquery.Compile(spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
