package dsl

import (
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/loop"
)

// The loop's plans of queries in filter context (constant_score's filter, a bool's
// filter and must_not clauses): they find the documents as the query's Searcher without
// scores does, and score nothing.

// loopableMore reports whether the loop runs q, of the shapes Loopable leaves to it:
// constant_score, fuzzy queries, and the queries that are not scored (prefix, terms, ids),
// which score their boost as scorerOf makes them. match_all itself is not among them (a
// search of every document stays with bleve's searchers); as a filter, under
// constant_score or in a bool of must_not only, it is.
func loopableMore(q bq.Query, c *Context) bool {
	switch x := q.(type) {
	case *constantQuery:
		return Matchable(x.filter, c)
	case *fuzzyQuery, *knnQuery:
		return true
	case *topQuery:
		return loopableMore(x.Query, c)
	case *bq.MatchAllQuery, scored:
		return false
	}
	return matchableShape(q, c)
}

// Matchable reports whether the loop finds q's documents as a filter: a query of the
// shapes below, or one the loop runs scored (its scores then unread).
func Matchable(q bq.Query, c *Context) bool {
	return matchableShape(q, c) || Loopable(q, c)
}

func matchableShape(q bq.Query, c *Context) bool {
	switch x := q.(type) {
	case *termQuery, *bq.TermQuery, *fuzzyQuery, *bq.PrefixQuery, *bq.DocIDQuery, *bq.MatchNoneQuery, *bq.MatchAllQuery, *phraseQuery:
		return true
	case *constantQuery:
		return Matchable(x.filter, c)
	case *disMaxQuery:
		return allMatchable(x.queries, c)
	case *bq.DisjunctionQuery:
		return allMatchable(x.Disjuncts, c)
	case *boolQuery:
		return matchableBool(x, c)
	}
	return false
}

func allMatchable(qs []bq.Query, c *Context) bool {
	for _, q := range qs {
		if !Matchable(q, c) {
			return false
		}
	}
	return true
}

// matchableBool reports whether the loop finds a bool's documents: its must clauses
// and, when some must match, its should clauses are filters it finds (should clauses
// that need not match only score); its filters and must_not clauses are predicates or
// filters it finds; and some clause that it finds from postings drives it.
func matchableBool(q *boolQuery, c *Context) bool {
	if !allMatchable(q.must, c) || (q.minShould > 0 && !allMatchable(q.should, c)) {
		return false
	}
	for _, f := range append(append([]bq.Query(nil), q.filter...), q.mustNot...) {
		if PredicateOf(f, c) == nil && !postingsFilter(f) && !Matchable(f, c) {
			return false
		}
	}
	return len(q.must) > 0 || q.minShould > 0 || driverOf(q.filter, c) >= 0
}

// driverOf is the first of a bool's filters that the loop finds from postings (rather
// than checks candidates against), -1 when none is.
func driverOf(filters []bq.Query, c *Context) int {
	for i, f := range filters {
		if Matchable(f, c) {
			return i
		}
	}
	return -1
}

// moreNode plans the queries loopableMore accepts, under their ancestors' boost.
func (p *planner) moreNode(q bq.Query, boost float32) (loop.Node, error) {
	switch x := q.(type) {
	case *bq.MatchNoneQuery:
		return loop.None{}, nil
	case *constantQuery:
		return p.constant(x.filter, x.times(boost))
	case *fuzzyQuery:
		return p.fuzzyNode(x, boost)
	case *knnQuery:
		return p.knnNode(x, boost)
	case *topQuery:
		return p.node(x.Query, boost)
	}
	return p.constant(q, ownBoost(q)*boost)
}

// constant is scoring.NewConstant's plan over a filter's.
func (p *planner) constant(filter bq.Query, score float32) (loop.Node, error) {
	n, err := p.match(filter)
	if _, none := n.(loop.None); none || err != nil {
		return n, err
	}
	return &loop.Constant{Node: n, Score: float64(score)}, nil
}

// match plans q as a filter (see Matchable).
func (p *planner) match(q bq.Query) (loop.Node, error) {
	switch x := q.(type) {
	case *termQuery:
		return p.termsNode(x.t.Field, []string{string(x.t.Term)})
	case *bq.TermQuery:
		return p.termsNode(fieldOr(x.FieldVal, p.m), []string{x.Term})
	case *fuzzyQuery:
		return p.fuzzyMatch(x)
	case *phraseQuery:
		return p.phrase(x, 1, false) // without its statistics: its score is never read
	case *bq.PrefixQuery:
		return p.prefixMatch(x)
	case *bq.DocIDQuery:
		// A document's segment finds it by its _id term, as bleve's DocNumbers does.
		return p.termsNode("_id", x.IDs)
	case *bq.MatchNoneQuery:
		return loop.None{}, nil
	case *bq.MatchAllQuery:
		return loop.All{}, nil
	case *constantQuery:
		return p.match(x.filter)
	case *disMaxQuery:
		return p.matchAny(x.queries, 1)
	case *bq.DisjunctionQuery:
		return p.matchAny(x.Disjuncts, int(x.Min))
	case *boolQuery:
		return p.matchBool(x)
	}
	return p.node(q, 1)
}

func (p *planner) matches(qs []bq.Query) ([]loop.Node, error) { return planEach(qs, p.match) }

// planEach plans each of xs.
func planEach[T any](xs []T, plan func(T) (loop.Node, error)) ([]loop.Node, error) {
	out := make([]loop.Node, 0, len(xs))
	for _, x := range xs {
		n, err := plan(x)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// matchAny is a disjunction of filters: at least min of them (one at least). With one,
// the terms of its clauses' term, terms, fuzzy and prefix queries are or-ed into one
// bit set.
func (p *planner) matchAny(qs []bq.Query, min int) (loop.Node, error) {
	subs, err := p.matches(qs)
	if err != nil || min > 1 {
		return &loop.Disjunction{Subs: subs, Min: min}, err
	}
	var lists loop.Terms
	others := make([]loop.Node, 0, len(subs)+1)
	for _, n := range subs {
		switch x := n.(type) {
		case *loop.Terms:
			lists.Lists = append(lists.Lists, x.Lists...)
		case loop.None:
		default:
			others = append(others, n)
		}
	}
	if len(lists.Lists) > 0 {
		others = append(others, &lists)
	}
	switch len(others) {
	case 0:
		return loop.None{}, nil
	case 1:
		return others[0], nil
	}
	return &loop.Union{Subs: others}, nil
}

// matchBool is a bool as a filter: its must clauses, and its should clauses when some
// must match, joined without scores, else the first filter it finds from postings; then
// its other filters and must_not clauses, as a scored bool's.
func (p *planner) matchBool(q *boolQuery) (loop.Node, error) {
	subs, err := p.matches(q.must)
	if err != nil {
		return nil, err
	}
	if q.minShould > 0 {
		any, err := p.matchAny(q.should, q.minShould)
		if err != nil {
			return nil, err
		}
		subs = append(subs, any)
	}
	rest := q
	if len(subs) == 0 {
		i := driverOf(q.filter, p.c)
		n, err := p.match(q.filter[i])
		if err != nil {
			return nil, err
		}
		subs = append(subs, n)
		rest = &boolQuery{ranges: q.ranges, mustNot: q.mustNot}
		rest.filter = append(append(rest.filter, q.filter[:i]...), q.filter[i+1:]...)
	}
	if len(subs) == 1 {
		return p.filtered(subs[0], rest)
	}
	return p.filtered(&loop.Conjunction{Subs: subs}, rest)
}
