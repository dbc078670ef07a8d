package searchbench

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// facetedSettings add to the search benchmark's settings the facets of a shop's search
// page (brand, colour, category, price) and its variants (three records a group).
var facetedSettings = func() searchv1alpha1.IndexSettings {
	s := *settings.DeepCopy()
	s.FilterableFields = append(s.FilterableFields, "color", "category", "groupId")
	s.FacetFields = []searchv1alpha1.FieldPath{"brand", "color", "category", "price"}
	s.Distinct = &searchv1alpha1.DistinctSetting{Field: "groupId", Limit: 1}
	return s
}()

// plainFaceted is a faceted search: three facets, no selection, no grouping.
func plainFaceted(q string) map[string]any {
	return map[string]any{"q": q, "limit": 20, "facets": []string{"brand", "color", "category"}, "distinct": false}
}

// disjunctiveFaceted is a shopper's refined search: a selection in each of the three
// facets (each counted under the other two), the stats of price, and distinct.
func disjunctiveFaceted(q string) map[string]any {
	return map[string]any{"q": q, "limit": 20, "facets": []string{"brand", "color", "category", "price"}, "distinct": true,
		"facetFilters": map[string]any{
			"brand":    []string{"brand-3", "brand-17", "brand-42", "brand-99", "brand-150"},
			"color":    []string{"red", "navy"},
			"category": []string{"cat-1", "cat-5", "cat-9"},
		}}
}

// groupedFaceted is a faceted search with facet stats and distinct, before any
// selection: every match is grouped and counted.
func groupedFaceted(q string) map[string]any {
	return map[string]any{"q": q, "limit": 20, "facets": []string{"brand", "color", "category", "price"}, "distinct": true}
}

// keyedBody sends body for each of qs in turn through POST /search.
func keyedBody(sys system, qs []string, body func(string) map[string]any) target {
	return func(i int) *http.Request {
		raw, _ := json.Marshal(body(qs[i%len(qs)]))
		return post(sys.apiURL+"/api/teams/bench/indexes/products/search", raw, map[string]string{"Authorization": "Bearer " + sys.key})
	}
}

// BenchmarkFacetedSearch compares, through POST /search on 100,000 records, a search
// with three disjunctive facets (a selection in each), facet stats and distinct with a
// plain faceted search of the same three facets, 8 clients at once: for the search
// benchmark's text queries, and for an empty query (every record counted, grouped and
// collapsed); and the same search before any selection (grouped: facet stats and
// distinct over every match). Target (issue 22): at most 2x the CPU per request.
func BenchmarkFacetedSearch(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	t0 := time.Now()
	sys := startWith(b, ctx, facetedSettings)
	b.Logf("set up 100,000 records in %s", time.Since(t0).Round(time.Second))
	all := []string{""}
	targets := map[string]target{
		"text/plain": keyedBody(sys, queries, plainFaceted), "text/disjunctive": keyedBody(sys, queries, disjunctiveFaceted),
		"text/grouped": keyedBody(sys, queries, groupedFaceted),
		"all/plain":    keyedBody(sys, all, plainFaceted), "all/disjunctive": keyedBody(sys, all, disjunctiveFaceted),
		"all/grouped": keyedBody(sys, all, groupedFaceted),
	}
	order := []string{"text/plain", "text/disjunctive", "text/grouped", "all/plain", "all/disjunctive", "all/grouped"}
	for _, name := range order {
		run(b, targets[name]) // warm caches, connections and the fields' columns
	}
	b.ResetTimer()
	res := map[string]result{}
	for i := 0; i < b.N*rounds; i++ {
		for _, name := range order {
			r := run(b, targets[name])
			b.Logf("%-16s %7.1f req/s  p50 %v  p99 %v  cpu %v/req", name, r.rps, r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.cpu.Round(10*time.Microsecond))
			res[name] = best(res[name], r)
		}
	}
	b.StopTimer()
	for _, name := range order {
		b.ReportMetric(float64(res[name].cpu.Microseconds())/1000, name+"-cpu-ms/op")
		b.ReportMetric(float64(res[name].p50.Microseconds())/1000, name+"-p50-ms")
	}
	for _, q := range []string{"text", "all"} {
		for _, kind := range []string{"disjunctive", "grouped"} {
			p, d := res[q+"/plain"], res[q+"/"+kind]
			b.ReportMetric(float64(d.cpu)/float64(p.cpu), q+"/"+kind+"/plain-cpu")
			b.ReportMetric(float64(d.p50)/float64(p.p50), q+"/"+kind+"/plain-p50")
		}
	}
}
