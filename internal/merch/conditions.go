package merch

import (
	"reflect"
	"slices"

	"github.com/aislehq/aisle/internal/searchquery"
)

// What a condition holds besides its pattern: filters and a context. A condition holds
// for a search when all it holds matches: its pattern the query (set.go), its context
// one of the search's ruleContexts, and its filters are selected by the search's
// filters and facetFilters.
//
// "Selected" means the search asks for those records at least as narrowly: each clause
// of the condition's filters (the members of its top-level and) is implied by the
// clauses the search ANDs, one of them or (for an or of ands) several (a member of the top-level and of its filters, or one field of
// its facetFilters, read as eq for one value and in for several). So a category page,
// `facetFilters: {"categories": ["shoes"]}` or `filters: {"field": "categories", "eq":
// "shoes"}`, selects the condition `{"field": "categories", "eq": "shoes"}`; a page of
// shoes and boots (`in: ["shoes", "boots"]`) does not, nor one that ORs the clause with
// another. A clause implies another when it is the same, or narrower on the same field:
// eq a value the other's in lists, in a part of its list, a range (or values) within its
// range, anything on the field for exists true; a search's or implies a clause all its
// branches imply, and a condition's or is implied by what implies one of its branches.
// A not is implied only by the same not. The search's own filters are matched as sent,
// before any rule adds its own.

// Search is what rules' conditions are matched against: the query's text, the
// request's filters, facet filters and rule contexts.
type Search struct {
	Query        string
	Filters      *searchquery.Filter
	FacetFilters map[string][]any
	Contexts     []string
	// Overlay is a preview's view of the rules; nil, the index's own.
	Overlay *Overlay
}

// held is what a search asks, read once for every condition it is matched against.
type held struct {
	clauses  []searchquery.Filter
	contexts []string
}

// heldBy reads s's clauses: those its filters AND, then one per field of facetFilters.
func heldBy(s Search) held {
	h := held{clauses: conjuncts(s.Filters), contexts: s.Contexts}
	for _, field := range sortedKeys(s.FacetFilters) {
		switch vs := s.FacetFilters[field]; len(vs) {
		case 0:
		case 1:
			h.clauses = append(h.clauses, searchquery.Filter{Field: field, Eq: vs[0]})
		default:
			h.clauses = append(h.clauses, searchquery.Filter{Field: field, In: vs})
		}
	}
	return h
}

// Holds reports whether condition c's filters and context hold for search s (its
// pattern is matched apart, against the query's terms).
func Holds(c Condition, s Search) bool {
	return heldBy(s).holds(conditionOf(c))
}

// condition is a condition's filters, split into the clauses they AND, and its context.
type condition struct {
	clauses []searchquery.Filter
	context string
}

func conditionOf(c Condition) condition {
	return condition{clauses: conjuncts(c.Filters), context: c.Context}
}

// plain reports a condition that holds whatever the search's filters and contexts.
func (c condition) plain() bool { return len(c.clauses) == 0 && c.context == "" }

func (h held) holds(c condition) bool {
	if c.context != "" && !slices.Contains(h.contexts, c.context) {
		return false
	}
	asked := searchquery.Filter{And: h.clauses}
	for _, want := range c.clauses {
		if !implies(asked, want) {
			return false
		}
	}
	return true
}

// conjuncts is f's top-level and, flattened: the clauses it ANDs.
func conjuncts(f *searchquery.Filter) []searchquery.Filter {
	if f == nil {
		return nil
	}
	if f.Field == "" && len(f.And) > 0 && len(f.Or) == 0 && f.Not == nil {
		var out []searchquery.Filter
		for i := range f.And {
			out = append(out, conjuncts(&f.And[i])...)
		}
		return out
	}
	return []searchquery.Filter{*f}
}

// implies reports whether every record have keeps, want keeps too.
func implies(have, want searchquery.Filter) bool {
	// Each step is sound (never says yes wrongly); their order makes the common shapes
	// complete: an and of clauses against an or of ands, say.
	switch {
	case len(have.Or) > 0:
		return all(have.Or, func(h searchquery.Filter) bool { return implies(h, want) })
	case len(want.And) > 0:
		return all(want.And, func(w searchquery.Filter) bool { return implies(have, w) })
	case len(want.Or) > 0 && slices.ContainsFunc(want.Or, func(w searchquery.Filter) bool { return implies(have, w) }):
		return true
	case len(have.And) > 0:
		return slices.ContainsFunc(have.And, func(h searchquery.Filter) bool { return implies(h, want) })
	case len(want.Or) > 0:
		return false
	case have.Not != nil || want.Not != nil:
		return reflect.DeepEqual(have, want)
	case have.Field == "" || have.Field != want.Field:
		return false
	}
	return impliesOnField(have, want)
}

// impliesOnField is implies for two clauses on one field.
func impliesOnField(have, want searchquery.Filter) bool {
	values := haveValues(have)
	switch {
	case want.Exists != nil:
		return *want.Exists == (have.Exists == nil || *have.Exists)
	case want.Eq != nil:
		return len(values) > 0 && all(values, func(v any) bool { return same(v, want.Eq) })
	case want.In != nil:
		return len(values) > 0 && all(values, func(v any) bool { return slices.ContainsFunc(want.In, func(w any) bool { return same(v, w) }) })
	case want.Range != nil && have.Range != nil:
		return within(*have.Range, *want.Range)
	case want.Range != nil:
		return len(values) > 0 && all(values, func(v any) bool { return inRange(v, *want.Range) })
	}
	return false
}

// haveValues are the values a clause keeps (eq or in), none for another clause.
func haveValues(f searchquery.Filter) []any {
	if f.Eq != nil {
		return []any{f.Eq}
	}
	return f.In
}

// same compares two values of clauses: numbers as numbers.
func same(a, b any) bool {
	if c, ok := compareValues(a, b); ok {
		return c == 0
	}
	return reflect.DeepEqual(a, b)
}

func all[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string][]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
