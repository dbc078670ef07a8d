package searchquery

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Disjunctive facets, as a refinement list needs them: a request's facetFilters select
// values per facet field (OR within a field, AND across fields and with filters). The
// hits obey every selection, through post_filter, so that the query and the
// aggregations are not narrowed by them; each facet named in facetFilters is counted
// under every other facet's selection (a filter aggregation), so that its list keeps
// showing its other values with the counts they would have; a facet not named is
// counted under every selection. facetStats of a numeric facet are taken over the same
// records as its counts.

// MaxFacetFilterFields bounds the fields of a request's facetFilters (the settings hold
// at most 50 facet fields).
const MaxFacetFilterFields = 50

// selection is a request's facetFilters as queries, by field path.
type selection map[string]any

// checkFacetFilters validates facetFilters (facet fields, allowed in public facets for
// browsers; 1 to MaxInValues values the field can hold) and returns their queries.
func checkFacetFilters(req *Request, r Access, s Schema, p *problems) selection {
	if len(req.FacetFilters) > MaxFacetFilterFields {
		p.add("facetFilters", "at most %d fields", MaxFacetFilterFields)
		return nil
	}
	allowed := r.facetable()
	sel := selection{}
	for _, path := range slices.Sorted(maps.Keys(req.FacetFilters)) {
		values, place := req.FacetFilters[path], "facetFilters."+path
		switch {
		case !allowed.has(path):
			p.add(place, "%s", notAllowed(path, allowed))
		case len(values) == 0 || len(values) > MaxInValues:
			p.add(place, "needs 1 to %d values", MaxInValues)
		default:
			if q := selectValues(path, values, place, s, p); q != nil {
				sel[path] = q
			}
		}
	}
	return sel
}

// selectValues is the query of the records holding one of values at path, nil when a
// value is refused (the problem is recorded).
func selectValues(path string, values []any, place string, s Schema, p *problems) any {
	fb := &filterBuilder{schema: s, p: p}
	if q := fb.terms(path, values, place); q != nil {
		return q
	}
	return nil
}

// all is the selections of every field but except, in field order (nil: none).
func (sel selection) all(except string) []any {
	var out []any
	for _, path := range slices.Sorted(maps.Keys(sel)) {
		if path != except {
			out = append(out, sel[path])
		}
	}
	return out
}

// postFilter narrows the hits to every selection (nil: no selection).
func (sel selection) postFilter() any {
	return and(sel.all(""))
}

// and is the conjunction of queries: nil for none, the query itself for one.
func and(queries []any) any {
	switch len(queries) {
	case 0:
		return nil
	case 1:
		return queries[0]
	}
	return map[string]any{"bool": map[string]any{"filter": queries}}
}

// facetAgg is how one requested facet is counted: its aggregations f<i> (and s<i> for
// stats), or a filter aggregation f<i> holding v (and s) when other selections apply.
type facetAgg struct {
	path     string
	filtered bool
	stats    bool
	// empty: a field without values to count (objects, geo points), not aggregated.
	empty bool
}

// facetPlan lays out the aggregations of the requested facets.
func facetPlan(req Request, s Schema, sel selection) []facetAgg {
	out := make([]facetAgg, 0, len(req.Facets))
	for _, path := range req.Facets {
		f, known := s[path]
		out = append(out, facetAgg{path: path, empty: known && !f.HasValues(), stats: known && f.Kind == KindNumber,
			filtered: len(sel.all(path)) > 0})
	}
	return out
}

// facetAggs counts the values of each requested facet, with the stats of numeric ones.
func facetAggs(facets []facetAgg, req Request, s Schema, sel selection) map[string]any {
	size := req.MaxValuesPerFacet
	if size == 0 {
		size = DefaultFacetValues
	}
	aggs := make(map[string]any, len(facets))
	for i, fa := range facets {
		if fa.empty {
			continue
		}
		name := strconv.Itoa(i)
		terms := map[string]any{"terms": map[string]any{"field": s.exactField(fa.path, nil), "size": size}}
		stats := map[string]any{"stats": map[string]any{"field": s.exactField(fa.path, nil)}}
		if !fa.filtered {
			aggs["f"+name] = terms
			if fa.stats {
				aggs["s"+name] = stats
			}
			continue
		}
		sub := map[string]any{"v": terms}
		if fa.stats {
			sub["s"] = stats
		}
		aggs["f"+name] = map[string]any{"filter": and(sel.all(fa.path)), "aggs": sub}
	}
	return aggs
}

// FacetStats are the bounds of a numeric facet's values over the records counted.
type FacetStats struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	Avg float64 `json:"avg"`
	Sum float64 `json:"sum"`
}

// Aggregation answers the facets are read from.
type (
	bucket struct {
		Key         json.RawMessage `json:"key"`
		KeyAsString *string         `json:"key_as_string"`
		DocCount    int64           `json:"doc_count"`
	}
	termsAnswer struct {
		Buckets []bucket `json:"buckets"`
	}
	statsAnswer struct {
		Count int64    `json:"count"`
		Min   *float64 `json:"min"`
		Max   *float64 `json:"max"`
		Avg   *float64 `json:"avg"`
		Sum   *float64 `json:"sum"`
	}
	filteredAnswer struct {
		V termsAnswer  `json:"v"`
		S *statsAnswer `json:"s"`
	}
)

// shapeFacets reads the facets' counts and stats from the aggregations.
func shapeFacets(facets []facetAgg, aggs map[string]json.RawMessage, out *Response) error {
	for i, fa := range facets {
		name := strconv.Itoa(i)
		var terms termsAnswer
		var stats *statsAnswer
		if err := decodeAgg(aggs, "f"+name, fa, &terms, &stats); err != nil {
			return err
		}
		if fa.stats && !fa.filtered {
			if err := decodeOptional(aggs["s"+name], &stats); err != nil {
				return fmt.Errorf("decoding the stats of facet %q: %w", fa.path, err)
			}
		}
		values := make([]FacetValue, 0, len(terms.Buckets))
		for _, b := range terms.Buckets {
			values = append(values, FacetValue{Value: facetValue(b.Key, b.KeyAsString), Count: b.DocCount})
		}
		out.Facets[fa.path] = values
		if st, ok := stats.bounds(); ok {
			if out.FacetStats == nil {
				out.FacetStats = map[string]FacetStats{}
			}
			out.FacetStats[fa.path] = st
		}
	}
	return nil
}

// decodeAgg reads facet fa's counts (and stats, when filtered) from aggregation name.
func decodeAgg(aggs map[string]json.RawMessage, name string, fa facetAgg, terms *termsAnswer, stats **statsAnswer) error {
	raw := aggs[name]
	if len(raw) == 0 {
		return nil
	}
	if !fa.filtered {
		return wrapDecode(json.Unmarshal(raw, terms), fa.path)
	}
	var f filteredAnswer
	if err := json.Unmarshal(raw, &f); err != nil {
		return wrapDecode(err, fa.path)
	}
	*terms, *stats = f.V, f.S
	return nil
}

func wrapDecode(err error, path string) error {
	if err != nil {
		return fmt.Errorf("decoding the counts of facet %q: %w", path, err)
	}
	return nil
}

func decodeOptional(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// bounds are the stats of records holding a value (none: ok is false).
func (s *statsAnswer) bounds() (FacetStats, bool) {
	if s == nil || s.Count == 0 || s.Min == nil || s.Max == nil || s.Avg == nil || s.Sum == nil {
		return FacetStats{}, false
	}
	return FacetStats{Min: *s.Min, Max: *s.Max, Avg: *s.Avg, Sum: *s.Sum}, true
}
