package merch

import (
	"strconv"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Gates narrow the conditions a search is matched against. Each condition sits behind
// one gate, something it holds that a search must hold too for it to hold: its
// context, or a field (and value) one of its filters' clauses needs the search's
// filters to name. A search opens the gates of what it holds (its contexts, every
// field and value its filters and facetFilters name, anywhere in them) and the open
// gate of the conditions without either, so that it tests (conditions.go) only the
// conditions behind those, not every rule of the index.
//
// Why a gate is sound: a clause on a field is implied (conditions.go) only by a clause
// on the same field, found in the search's and, in each branch of an or, or the same
// not; and eq a value only by eq or in of values all the same (numbers as numbers).

// gate is what a condition needs a search to hold: a context, or a field, with value
// when its clause is eq a number or a string (valueKey); the zero gate is open.
type gate struct{ context, field, value string }

// gateOf is c's gate: its context, else its first clause eq a value, else its first
// clause on a field, else the open gate.
func gateOf(c condition) gate {
	if c.context != "" {
		return gate{context: c.context}
	}
	var g gate
	for _, cl := range c.clauses {
		if !onField(cl) {
			continue
		}
		if k, ok := valueKey(cl.Eq); ok {
			return gate{field: cl.Field, value: k}
		}
		if g.field == "" {
			g = gate{field: cl.Field}
		}
	}
	return g
}

// onField reports a clause on one field alone (no and, or or not in it).
func onField(f searchquery.Filter) bool {
	return f.Field != "" && len(f.And) == 0 && len(f.Or) == 0 && f.Not == nil
}

// valueKey is a value as same (conditions.go) compares it: two values are the same
// exactly when their keys are; false for a value same compares as a whole (a bool,
// say), which gates on its field alone.
func valueKey(v any) (string, bool) {
	if n, ok := number(v); ok {
		if n == 0 {
			n = 0 // -0 is the same as 0
		}
		return "n" + strconv.FormatFloat(n, 'g', -1, 64), true
	}
	if s, ok := v.(string); ok {
		return "s" + s, true
	}
	return "", false
}

// gates are the gates h opens: the open one, one per context, and one per field and
// per field and value its clauses name, each once.
func (h held) gates() []gate {
	out := []gate{{}}
	seen := map[gate]bool{{}: true}
	add := func(g gate) {
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	for _, c := range h.contexts {
		add(gate{context: c})
	}
	var walk func(f searchquery.Filter)
	walk = func(f searchquery.Filter) {
		if f.Field != "" {
			add(gate{field: f.Field})
			for _, v := range haveValues(f) {
				if k, ok := valueKey(v); ok {
					add(gate{field: f.Field, value: k})
				}
			}
		}
		for _, sub := range f.And {
			walk(sub)
		}
		for _, sub := range f.Or {
			walk(sub)
		}
	}
	for _, c := range h.clauses {
		walk(c)
	}
	return out
}

// gated are conditions by their gates.
type gated map[gate][]ref

func (g gated) add(at gate, r ref) { g[at] = append(g[at], r) }
