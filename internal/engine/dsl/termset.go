package dsl

import (
	"bytes"
	"sort"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// termSet is the field and terms of a predicate that is any of several terms of one
// field (a terms query, or a bool should of terms), or "" when it is not one.
func (p *Pred) termSet() (string, []string) {
	if p.kind != predAny || p.atLeast != 1 || len(p.subs) < 2 {
		return "", nil
	}
	field := p.subs[0].field
	terms := make([]string, 0, len(p.subs))
	for _, s := range p.subs {
		if s.kind != predTerm || s.field != field {
			return "", nil
		}
		terms = append(terms, s.term)
	}
	return field, terms
}

// bindTermSet checks for any of terms of field with one lookup of the document's
// ordinals in a per-segment set of the terms' ordinals, rather than a check per term:
// a facet selection of ten brands costs one check.
func bindTermSet(v *columns.View, field string, terms []string) (Check, error) {
	cols, err := v.Field(field, "")
	if err != nil {
		return nil, err
	}
	sets := make([][]bool, len(cols))
	for i, col := range cols {
		for _, t := range terms {
			o := sort.Search(len(col.Terms), func(k int) bool { return bytes.Compare(col.Terms[k], []byte(t)) >= 0 })
			if o < len(col.Terms) && string(col.Terms[o]) == t {
				if sets[i] == nil {
					sets[i] = make([]bool, len(col.Terms))
				}
				sets[i][o] = true
			}
		}
	}
	var one [1]uint32
	return func(seg int, local uint64) bool {
		set := sets[seg]
		if set == nil {
			return false
		}
		for _, o := range cols[seg].Ords(local, &one) {
			if set[o] {
				return true
			}
		}
		return false
	}, nil
}
