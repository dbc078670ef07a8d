package searchquery

import (
	"encoding/json"
	"slices"

	"github.com/aislehq/aisle/internal/indexmapping"
)

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

// Compile is the one step from a search decided to what it sends: every Elasticsearch
// body of it (the search's, its pinned search's with promoted records, its merge round's
// with distinct) and what shaping their answers needs. Each body is built here once, as
// typed values, and spec is left as it was (a retry or another window compiles it again).
func Compile(spec Spec) (Plan, error) {
	req, r, s, in := spec.req, spec.access, spec.schema, spec.in
	hasText := len(splitWords(req.Q)) > 0
	order := orderOf(req, r, s, hasText).withStats(in.Stats)
	quantized, popular := order.quantized(), popularityOf(r, in.Signals)
	if popular {
		quantized = append(quantized, critCustom)
	}
	tp, band := newWeighedPlan(req, r, s, in.Drop, quantized, in.Words, len(order.after) == 0).withMerch(r, in.RuleChanges, quantized)
	tp.named = req.Explain.On && (tp.strategy == StrategyFrequency || tp.strategy == StrategyAny)
	filters := slices.Concat(spec.filters, in.RuleChanges.filters())
	var sem *semanticPlan
	if spec.semantic != nil {
		decided := *spec.semantic
		sem = &decided
		sem.filters = filters
		tp.semantic = sem
		sem.blend(tp.tail)
	}
	ranked := append(order.bandClauses(tp.radix, in.Stats), band.clauses(tp.radix)...)
	if popular {
		ranked = append(ranked, popularityClauses(tp.radix, in.Signals)...)
	}
	sh := Shaping{Limit: spec.Page.Size, Offset: spec.Page.From, Facets: req.Facets, IgnoredWords: tp.words.ignored,
		Retry:     tp.strategy == StrategyAll && len(tp.words.kept) > 1 && sem == nil,
		facets:    facetPlan(req, s, spec.sel),
		highlight: highlightPlanOf(req, r, s, hasText),
		distinct:  spec.distinct.sortedBy(order.directions()),
	}
	if req.Explain.On {
		sh.explain = newExplainPlan(tp, order)
		sh.explain.semantic, sh.explain.popularity, sh.explain.rulesShift = sem, popular, band.shift
	}
	body := searchBody{
		Query:          boolBody{boolQuery(tp.query(ranked), filters)},
		From:           spec.Page.From,
		Size:           spec.Page.Size,
		TrackTotalHits: true,
		Sort:           order.sort(),
		Source:         source(req, r, sh.explain),
		Highlight:      sh.highlight.body(),
	}
	return compileBodies(body, sh, spec)
}

// compileBodies finishes body with the facets, the groups and what the rules change in
// it, and builds the bodies the search sends from it.
func compileBodies(body searchBody, sh Shaping, spec Spec) (Plan, error) {
	changes := spec.in.RuleChanges
	promotedOut := changes.promotedOut()
	body = withFacetsAndGroups(body, sh, spec.req, spec.schema, spec.sel, promotedOut)
	var bodies Bodies
	var err error
	if body, bodies.Pinned, sh.Organic, err = changes.arrange(body, spec.Page, promotedOut); err != nil {
		return Plan{}, err
	}
	if sh.distinct != nil {
		bodies.Search, bodies.Merge, err = groupedBodies(sh.distinct, body, spec.Page)
	} else {
		bodies.Search, err = json.Marshal(body)
	}
	if err != nil {
		return Plan{}, err
	}
	return Plan{Bodies: bodies, Shaping: sh}, nil
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
// retrievable fields; and the request's fields when it names some. An explained hybrid
// search also has the embedder's vectors back (hybrid_explain.go).
func source(req Request, r Access, e *explainPlan) sourceFilter {
	src := sourceFilter{Excludes: Hidden(r)}
	includes := req.Fields
	if len(includes) == 0 {
		includes = r.retrievable()
	}
	if len(includes) > 0 {
		src.Includes = append([]string{indexmapping.ObjectIDField}, includes...)
	}
	if e != nil && e.semantic != nil {
		src = e.semantic.withVectors(src)
	}
	return src
}
