package searchquery

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// What a search's whyNot (internal/whynot) reads of its plan: each filter it applies,
// named by where it comes from, and the ranking of one record as the search ranked it.

// WhyNot says where a record is for a search, and what keeps it off the page.
type WhyNot struct {
	ObjectID string `json:"objectID"`
	// Position is 1-based, for the request as sent; nil when the record is not among
	// the first MaxWindow hits.
	Position *int     `json:"position"`
	Reasons  []Reason `json:"reasons"`
}

// Reason is one thing keeping the record off the page.
type Reason struct {
	Reason string         `json:"reason"`
	Detail map[string]any `json:"detail"`
}

// NamedFilter is one filter of a search and where it comes from.
type NamedFilter struct {
	// Name is filters, securedKey.filters, facetFilters.<field> or forcedFilters[i].
	Name  string
	Query any
}

// NamedFilters are the filters a search of req applies (the rules' own aside, which
// internal/merch names), as Decide decides them: it fails as Decide does on a
// request that breaks a rule.
func NamedFilters(req Request, r Access, s Schema) ([]NamedFilter, error) {
	var p problems
	var out []NamedFilter
	if req.Filters != nil {
		fb := &filterBuilder{allowed: r.filterable(), schema: s, p: &p}
		if q := fb.build(req.Filters, "filters", 1); q != nil {
			out = append(out, NamedFilter{Name: "filters", Query: q})
		}
	}
	if q := r.keyFilter(s, &p); q != nil {
		out = append(out, NamedFilter{Name: restrictionPlace, Query: q})
	}
	if r.Public {
		out = append(out, ForcedFilters(r.Policy, s)...)
	}
	sel := checkFacetFilters(&req, r, s, &p)
	for _, path := range slices.Sorted(maps.Keys(sel)) {
		out = append(out, NamedFilter{Name: "facetFilters." + path, Query: sel[path]})
	}
	return out, p.err()
}

// ForcedFilters are the forced filters of a public search policy, named
// forcedFilters[i]: what public search adds to every browser's search.
func ForcedFilters(policy searchv1alpha1.PublicSearchPolicy, s Schema) []NamedFilter {
	qs := forced(policy.ForcedFilters, s)
	out := make([]NamedFilter, len(qs))
	for i, q := range qs {
		out[i] = NamedFilter{Name: fmt.Sprintf("forcedFilters[%d]", i), Query: q}
	}
	return out
}

// RankingOf is the ranking and objectID of the first hit of an answer to a body of
// plan (nil, "" when it has none): decoded as the search's own hits are.
func (p Shaping) RankingOf(raw []byte) (*Ranking, string, error) {
	var res esResponse
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, "", fmt.Errorf("decoding the search answer: %w", err)
	}
	if len(res.Hits.Hits) == 0 {
		return nil, "", nil
	}
	h := res.Hits.Hits[0]
	if p.explain == nil {
		return nil, h.ID, nil
	}
	return p.explain.ranking(h.Sort, h.MatchedQueries), h.ID, nil
}

// Criteria are the criteria hits are ordered by, most significant first, as explain
// names them: the request's sort first (unless the ranking places it), the rules' band
// right after typo (or words) when a rule boosts or buries.
func Criteria(req Request, settings searchv1alpha1.IndexSettings) []string {
	ranking := relevance.Ranking(settings)
	var out []string
	if len(req.Sort) > 0 && !slices.Contains(ranking, critSort) {
		out = append(out, string(critSort))
	}
	for _, c := range withRulesBand(ranking) {
		out = append(out, string(c))
	}
	return out
}
