package searchquery

import (
	"encoding/json"
	"slices"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Plan is a validated request: the Elasticsearch body and what shaping the answer needs.
type Plan struct {
	Body   []byte
	Limit  int
	Offset int
	// Facets are the requested facet paths, in the order of the aggregations f0, f1, ...
	Facets []string
	// Retry: when the search matches nothing, a plan with one more word dropped from the
	// end may match (matchingStrategy all, more than one word left).
	Retry bool
	// IgnoredWords are the query words this plan does not use.
	IgnoredWords []string
	// Pinned is the body of the search for the records the rules promote (nil: none).
	Pinned []byte
	// Organic is the window of organic hits Body asks for: the page's, or with promoted
	// records the one their places leave (RuleChanges.Window).
	Organic   Window
	highlight *highlightPlan
	explain   *explainPlan
	// facets lay out the facets' aggregations; distinct groups the hits (nil: not).
	facets   []facetAgg
	distinct *distinctPlan
}

// Inputs are what a plan takes besides the request, the access and the mapping: read by
// the search service.
type Inputs struct {
	// Stats bound the fields of quantized bands (StatsFields names them).
	Stats FieldStats
	// Drop is the number of query words dropped from the end (retries of
	// matchingStrategy all).
	Drop int
	// RuleChanges is what the index's merchandising rules change in the search (rulechanges.go).
	RuleChanges *RuleChanges
	// Signals is the index's signals index, when it exists: customRanking's
	// _popularity is looked up in it (popularity.go). Empty: no popularity.
	Signals string
	// Words are the frequencies of the query's words (WordClauses), which the
	// frequency matching strategy weighs.
	Words WordStats
}

// Build validates req against what access allows and the index's schema, and returns
// the plan of its search. Every problem is named in one ErrInvalid error.
func Build(req Request, r Access, s Schema) (Plan, error) {
	return BuildWith(req, r, s, Inputs{})
}

// BuildWith is Build with the inputs read from the index.
func BuildWith(req Request, r Access, s Schema, in Inputs) (Plan, error) {
	spec, err := Decide(req, r, s)
	if err != nil {
		return Plan{}, err
	}
	return Compile(spec.With(in))
}

// Compile is the one step from a search decided to what it sends: its Elasticsearch
// bodies (the search's, and its pinned search's with promoted records) and what shaping
// their answers needs. Each body is built here once, as typed values, and spec is left
// as it was (a retry or another window compiles it again).
func Compile(spec Spec) (Plan, error) {
	req, r, s, in := spec.req, spec.access, spec.schema, spec.in
	filters, sel := spec.filters, spec.sel
	hasText := len(splitWords(req.Q)) > 0
	order := orderOf(req, r, s, hasText).withStats(in.Stats)
	quantized, popular := order.quantized(), popularityOf(r, in.Signals)
	if popular {
		quantized = append(quantized, critCustom)
	}
	tp, band := newWeighedPlan(req, r, s, in.Drop, quantized, in.Words, len(order.after) == 0).withMerch(r, in.RuleChanges, quantized)
	tp.named = req.Explain.On && (tp.strategy == StrategyFrequency || tp.strategy == StrategyAny)
	var sem *semanticPlan
	if spec.semantic != nil {
		decided := *spec.semantic
		sem = &decided
		sem.filters = slices.Concat(filters, in.RuleChanges.filters())
		tp.semantic = sem
		sem.blend(tp.tail)
	}
	ranked := append(order.bandClauses(tp.radix, in.Stats), band.clauses(tp.radix)...)
	if popular {
		ranked = append(ranked, popularityClauses(tp.radix, in.Signals)...)
	}
	limit := spec.Page.Size
	body := searchBody{
		Query:          boolBody{boolQuery(tp.query(ranked), slices.Concat(filters, in.RuleChanges.filters()))},
		From:           spec.Page.From,
		Size:           limit,
		TrackTotalHits: true,
		Sort:           order.sort(),
		Source:         source(req, r),
	}
	plan := Plan{Limit: limit, Offset: spec.Page.From, Facets: req.Facets, IgnoredWords: tp.words.ignored,
		Retry: tp.strategy == StrategyAll && len(tp.words.kept) > 1 && sem == nil, facets: facetPlan(req, s, sel), distinct: spec.distinct}
	if plan.highlight = highlightPlanOf(req, r, s, hasText); plan.highlight != nil {
		body.Highlight = plan.highlight.body()
	}
	body, plan.distinct = withFacetsAndGroups(body, plan, req, s, sel)
	if req.Explain.On {
		plan.explain = newExplainPlan(tp, order)
		if plan.explain.semantic = sem; sem != nil {
			body.Source = semanticSource(body.Source, sem)
		}
		plan.explain.popularity = popular
		plan.explain.rulesShift = band.shift
	}
	var err error
	if body, plan.Pinned, plan.Organic, err = in.RuleChanges.arrange(body, spec.Page); err != nil {
		return Plan{}, err
	}
	if plan.distinct != nil {
		plan.distinct = plan.distinct.over(body)
	}
	if plan.Body, err = json.Marshal(body); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// Filters validates a filter tree under access (its fields filterable, and allowed
// in public filters for browsers) and returns it as Elasticsearch queries, with the
// public policy's forced filters for browsers: what a search applies, for the other
// reads of the catalog (the recommendation lists). A nil tree is no filter.
func Filters(f *Filter, r Access, s Schema) ([]any, error) {
	var p problems
	filters := filterClauses(f, r, s, &p)
	if err := p.err(); err != nil {
		return nil, err
	}
	return filters, nil
}

// filterClauses builds f's query, recording its problems in p, and adds a secured key's
// filter and the forced filters of a browser's search (only used once p holds none).
func filterClauses(f *Filter, r Access, s Schema, p *problems) []any {
	var filters []any
	if f != nil {
		fb := &filterBuilder{allowed: r.filterable(), schema: s, p: p}
		if q := fb.build(f, "filters", 1); q != nil {
			filters = append(filters, q)
		}
	}
	if q := r.keyFilter(s, p); q != nil {
		filters = append(filters, q)
	}
	if r.Public {
		filters = append(filters, forced(r.Policy.ForcedFilters, s)...)
	}
	return filters
}

// FacetFilter validates a facet field and one of its values, as a request's facets and
// filters are validated (a facet field, allowed in public facets for browsers, and a
// value the field can hold), and returns the query selecting the records holding it.
func FacetFilter(field string, value string, r Access, s Schema) (any, error) {
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

// Hidden are the fields no hit returns: the version field, and the vectors when the
// index has embedders (they and their state are for the search, not for the page).
func Hidden(r Access) []string {
	if len(r.Settings.Embedders) > 0 {
		return []string{indexmapping.VersionField, indexmapping.VectorsField, indexmapping.EmbedStateField}
	}
	return []string{indexmapping.VersionField}
}

// source filters the returned fields: never the version field; for browsers only the
// retrievable fields; and the request's fields when it names some.
func source(req Request, r Access) map[string]any {
	src := map[string]any{"excludes": Hidden(r)}
	includes := req.Fields
	if len(includes) == 0 {
		includes = r.retrievable()
	}
	if len(includes) > 0 {
		src["includes"] = append([]string{indexmapping.ObjectIDField}, includes...)
	}
	return src
}
