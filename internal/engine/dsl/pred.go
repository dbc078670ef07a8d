package dsl

import (
	"bytes"
	"sort"

	"github.com/blevesearch/bleve/v2/mapping"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// Pred is a query that can be checked on a single document from columns: term queries
// on keyword and boolean fields, ranges on numbers and dates, exists on fields whose
// terms say which documents have them, match_all and match_none, and bool, conjunctions
// and disjunctions of those. A filter aggregation checks each
// document it collects this way, an array lookup, rather than stepping a searcher.
type Pred struct {
	kind    predKind
	field   string
	term    string
	rng     columnRange
	subs    []*Pred
	atLeast int // predAny: how many subs must match
}

type predKind int

const (
	predAll predKind = iota // every sub matches (none: match_all)
	predAny                 // atLeast subs match
	predNot                 // no sub matches
	predTerm
	predRange
	predExists // field has a value
)

// Check tells whether a document (a segment of a view and a number in it) matches.
type Check func(seg int, local uint64) bool

// PredicateOf returns q as a predicate, or nil when some part of q is not one of the
// kinds a predicate covers.
func PredicateOf(q bq.Query, c *Context) *Pred {
	switch x := q.(type) {
	case *bq.MatchAllQuery:
		return &Pred{kind: predAll}
	case *bq.MatchNoneQuery:
		return &Pred{kind: predAny, atLeast: 1}
	case *bq.TermQuery:
		if l := c.Leaf(x.FieldVal); l == nil || l.Type != "keyword" {
			return nil
		}
		return &Pred{kind: predTerm, field: x.FieldVal, term: x.Term}
	case *termQuery:
		if l := c.Leaf(x.t.Field); l == nil || (l.Type != "keyword" && l.Type != "boolean") {
			return nil
		}
		return &Pred{kind: predTerm, field: x.t.Field, term: string(x.t.Term)}
	case *constantQuery:
		return PredicateOf(x.filter, c)
	case *disMaxQuery:
		return listPred(predAny, x.queries, 1, c)
	case *bq.BoolFieldQuery:
		term := "F"
		if x.Bool {
			term = "T"
		}
		return &Pred{kind: predTerm, field: x.FieldVal, term: term}
	case columnRange:
		return &Pred{kind: predRange, rng: x}
	case *existsTerms:
		return &Pred{kind: predExists, field: x.field}
	case *boolQuery:
		return boolPred(x, c)
	case *bq.ConjunctionQuery:
		return listPred(predAll, x.Conjuncts, 0, c)
	case *bq.DisjunctionQuery:
		return listPred(predAny, x.Disjuncts, max(int(x.Min), 1), c)
	}
	return nil
}

func listPred(kind predKind, qs []bq.Query, atLeast int, c *Context) *Pred {
	p := &Pred{kind: kind, atLeast: atLeast}
	for _, q := range qs {
		s := PredicateOf(q, c)
		if s == nil {
			return nil
		}
		p.subs = append(p.subs, s)
	}
	return p
}

// boolPred: must and filter clauses all match, must_not none, and should clauses at
// least the bool's minimum.
func boolPred(q *boolQuery, c *Context) *Pred {
	all := &Pred{kind: predAll}
	for _, r := range q.ranges {
		all.subs = append(all.subs, &Pred{kind: predRange, rng: r})
	}
	for _, part := range [][]bq.Query{q.must, q.filter} {
		for _, x := range part {
			all.subs = append(all.subs, PredicateOf(x, c))
		}
	}
	if len(q.mustNot) > 0 {
		var not *Pred
		if inner := listPred(predAny, q.mustNot, 1, c); inner != nil {
			not = &Pred{kind: predNot, subs: []*Pred{inner}}
		}
		all.subs = append(all.subs, not)
	}
	if q.minShould > 0 {
		all.subs = append(all.subs, listPred(predAny, q.should, q.minShould, c))
	}
	for _, s := range all.subs {
		if s == nil {
			return nil
		}
	}
	return all
}

// Bind resolves the predicate against a reader's segments.
func (p *Pred) Bind(v *columns.View, m mapping.IndexMapping) (Check, error) { return p.bind(v, m, nil) }

// bind is Bind sharing the leaves' checks through leaves (see Memo), when not nil.
func (p *Pred) bind(v *columns.View, m mapping.IndexMapping, leaves map[string]*memoCheck) (Check, error) {
	if check, _, ok, err := p.bindLeaf(v, m, leaves); ok {
		return check, err
	}
	subs := make([]Check, len(p.subs))
	shared := make([]*memoCheck, 0, len(p.subs))
	for i, s := range p.subs {
		c, mc, ok, err := s.bindLeaf(v, m, leaves)
		if !ok {
			c, err = s.bind(v, m, leaves)
		}
		if err != nil {
			return nil, err
		}
		subs[i] = c
		if mc != nil {
			shared = append(shared, mc)
		}
	}
	if p.kind == predAll && len(shared) == len(subs) {
		return allShared(shared), nil
	}
	return combine(p.kind, p.atLeast, subs), nil
}

func combine(kind predKind, atLeast int, subs []Check) Check {
	switch kind {
	case predAll:
		return func(seg int, local uint64) bool {
			for _, s := range subs {
				if !s(seg, local) {
					return false
				}
			}
			return true
		}
	case predNot:
		return func(seg int, local uint64) bool {
			for _, s := range subs {
				if s(seg, local) {
					return false
				}
			}
			return true
		}
	}
	return func(seg int, local uint64) bool {
		n := 0
		for _, s := range subs {
			if s(seg, local) {
				if n++; n >= atLeast {
					return true
				}
			}
		}
		return false
	}
}

// bindExists checks that a document has any term of field: any ordinal in its column.
func bindExists(v *columns.View, field string) (Check, error) {
	cols, err := v.Field(field, "")
	if err != nil {
		return nil, err
	}
	return func(seg int, local uint64) bool {
		return cols[seg].AnyIn(local, 0, uint32(len(cols[seg].Terms)))
	}, nil
}

// bindTerm checks for one term of field: its ordinal in each segment's column.
func bindTerm(v *columns.View, field, term string) (Check, error) {
	cols, err := v.Field(field, "")
	if err != nil {
		return nil, err
	}
	ords := make([]uint32, len(cols))
	found := make([]bool, len(cols))
	for i, col := range cols {
		o := sort.Search(len(col.Terms), func(k int) bool { return bytes.Compare(col.Terms[k], []byte(term)) >= 0 })
		ords[i], found[i] = uint32(o), o < len(col.Terms) && string(col.Terms[o]) == term
	}
	return func(seg int, local uint64) bool {
		return found[seg] && cols[seg].AnyIn(local, ords[seg], ords[seg]+1)
	}, nil
}
