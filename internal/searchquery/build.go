package searchquery

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Plan is a validated request: the Elasticsearch body and what shaping the answer needs.
type Plan struct {
	Body   []byte
	Limit  int
	Offset int
	// Facets are the requested facet paths, in the order of the aggregations f0, f1, ...
	Facets []string
	// Highlight is nil when the request turned highlighting off.
	Highlight *Highlighter
}

// Build validates req against the rules and the index's schema and returns the plan of
// its search. Every broken rule is named in one ErrInvalid error.
func Build(req Request, r Rules, s Schema) (Plan, error) {
	var p problems
	limit := checkPaging(&req, r, &p)
	checkFacets(&req, r, &p)
	checkSort(&req, r, &p)
	checkFields(&req, r, &p)
	filters := filterClauses(req.Filters, r, s, &p)
	if err := p.err(); err != nil {
		return Plan{}, err
	}
	body := map[string]any{
		"query":            map[string]any{"bool": boolQuery(textQuery(req, r), filters)},
		"from":             req.Offset,
		"size":             limit,
		"track_total_hits": true,
		"sort":             sortKeys(req, r, s),
		"_source":          source(req, r),
	}
	if aggs := facetAggs(req, s); len(aggs) > 0 {
		body["aggs"] = aggs
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return Plan{}, err
	}
	plan := Plan{Body: raw, Limit: limit, Offset: req.Offset, Facets: req.Facets}
	if boolOr(req.Highlight, true) && strings.TrimSpace(req.Q) != "" {
		plan.Highlight = NewHighlighter(req.Q, r.Settings, boolOr(req.TypoTolerance, true))
	}
	return plan, nil
}

// Filters validates a filter tree under the rules (its fields filterable, and allowed
// in public filters for browsers) and returns it as Elasticsearch queries, with the
// public policy's forced filters for browsers: what a search applies, for the other
// reads of the catalog (the recommendation lists). A nil tree is no filter.
func Filters(f *Filter, r Rules, s Schema) ([]any, error) {
	var p problems
	filters := filterClauses(f, r, s, &p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return filters, nil
}

// filterClauses builds f's query, recording its problems in p, and adds the forced
// filters of a browser's search (only used once p holds none).
func filterClauses(f *Filter, r Rules, s Schema, p *problems) []any {
	var filters []any
	if f != nil {
		fb := &filterBuilder{allowed: r.filterable(), schema: s, p: p}
		if q := fb.build(f, "filters", 1); q != nil {
			filters = append(filters, q)
		}
	}
	if r.Public {
		filters = append(filters, forced(r.Policy.ForcedFilters, s)...)
	}
	return filters
}

// FacetFilter validates a facet field and one of its values, as a request's facets and
// filters are validated (a facet field, allowed in public facets for browsers, and a
// value the field can hold), and returns the query selecting the records holding it.
func FacetFilter(field string, value string, r Rules, s Schema) (any, error) {
	var p problems
	allowed := r.facetable()
	if !allowed.has(field) {
		p.add("field", "%s", notAllowed(field, allowed))
		return nil, p.err()
	}
	if f, known := s[field]; known {
		if msg := fitValue(f, value); msg != "" {
			p.add("value", "%s", msg)
			return nil, p.err()
		}
	}
	return map[string]any{"term": map[string]any{s.exactField(field, value): value}}, nil
}

// ExactField is the field holding path's exact values in s, for terms queries on it.
func (s Schema) ExactField(path string) string { return s.exactField(path, "") }

func boolQuery(text any, filters []any) map[string]any {
	b := map[string]any{"must": []any{text}}
	if len(filters) > 0 {
		b["filter"] = filters
	}
	return b
}

// textQuery matches q against the searchable fields: exact words score highest, then
// words within a typo distance, then the last word as a prefix (search as you type).
func textQuery(req Request, r Rules) any {
	q := strings.TrimSpace(req.Q)
	if q == "" {
		return map[string]any{"match_all": map[string]any{}}
	}
	fields := weightedFields(r)
	should := []any{
		multiMatch(q, fields, map[string]any{"boost": 2}),
		multiMatch(q, fields, map[string]any{"type": "phrase_prefix"}),
	}
	if boolOr(req.TypoTolerance, true) {
		should = append(should, multiMatch(q, fields, map[string]any{"fuzziness": "AUTO", "prefix_length": 1}))
	}
	return map[string]any{"bool": map[string]any{"should": should, "minimum_should_match": 1}}
}

func multiMatch(q string, fields []string, opts map[string]any) map[string]any {
	m := map[string]any{"query": q}
	if fields != nil {
		m["fields"] = fields
	} else {
		// No searchable fields configured: every text field, as the index's default
		// analyzers say (internal/indexmapping); lenient skips fields of other types.
		m["lenient"] = true
	}
	for k, v := range opts {
		m[k] = v
	}
	return map[string]any{"multi_match": m}
}

// weightedFields are the searchable fields as path^weight (nil: every text field).
func weightedFields(r Rules) []string {
	if len(r.Settings.SearchableFields) == 0 {
		return nil
	}
	out := make([]string, 0, len(r.Settings.SearchableFields))
	for _, f := range r.Settings.SearchableFields {
		w := max(f.Weight, 1)
		out = append(out, string(f.Path)+"^"+strconv.Itoa(int(w)))
	}
	return out
}

// sortKeys: the request's sort fields, then relevance, then custom ranking. Fields no
// record holds yet, or holding what has no order (objects, geo points), are left out:
// Elasticsearch refuses to sort on them, and sorting on them would change nothing.
func sortKeys(req Request, r Rules, s Schema) []any {
	keys := make([]any, 0, len(req.Sort)+1+len(r.Settings.CustomRanking))
	for _, k := range req.Sort {
		keys = appendSortKey(keys, s, k.Field, k.Order, "asc")
	}
	keys = append(keys, map[string]any{"_score": map[string]any{"order": "desc"}})
	for _, rule := range r.Settings.CustomRanking {
		keys = appendSortKey(keys, s, string(rule.Field), string(rule.Order), "desc")
	}
	return keys
}

func appendSortKey(keys []any, s Schema, path, order, def string) []any {
	f, ok := s[path]
	if !ok || !f.HasValues() {
		return keys
	}
	if order == "" {
		order = def
	}
	return append(keys, map[string]any{f.Keyword: map[string]any{"order": order}})
}

// source filters the returned fields: never the version field; for browsers only the
// retrievable fields; and the request's fields when it names some.
func source(req Request, r Rules) map[string]any {
	src := map[string]any{"excludes": []string{VersionField}}
	includes := req.Fields
	if len(includes) == 0 {
		includes = r.retrievable()
	}
	if len(includes) > 0 {
		src["includes"] = append([]string{"objectID"}, includes...)
	}
	return src
}

// facetAggs counts the values of each requested facet among the matching records.
func facetAggs(req Request, s Schema) map[string]any {
	if len(req.Facets) == 0 {
		return nil
	}
	size := req.MaxValuesPerFacet
	if size == 0 {
		size = DefaultFacetValues
	}
	aggs := make(map[string]any, len(req.Facets))
	for i, path := range req.Facets {
		// A field holding objects or geo points has no values to count: its facet is empty.
		if f, ok := s[path]; ok && !f.HasValues() {
			continue
		}
		aggs["f"+strconv.Itoa(i)] = map[string]any{"terms": map[string]any{"field": s.exactField(path, nil), "size": size}}
	}
	return aggs
}
