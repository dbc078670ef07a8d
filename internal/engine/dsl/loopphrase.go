package dsl

import (
	bq "github.com/blevesearch/bleve/v2/search/query"
	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/loop"
)

// phrase is phraseQuery.scorer's plan, or with score false its Searcher's (a filter's
// phrase, which only matches): each term's postings lists are read once, for the
// phrase's statistics and its search. Scored, it is nothing when no term occurs, as the
// scorer is.
func (p *planner) phrase(q *phraseQuery, boost float32, score bool) (loop.Node, error) {
	n := &loop.Phrase{Lists: make([][][]segapi.PostingsList, len(q.positions)), Positions: q.positions, Slop: q.slop}
	var dfs []int64
	for i, pos := range q.positions {
		for _, t := range pos.Terms {
			lists, df, err := p.rd.Postings(q.field, []byte(t))
			if err != nil {
				return nil, err
			}
			n.Lists[i] = append(n.Lists[i], lists)
			dfs = append(dfs, df)
		}
	}
	if !score {
		return n, nil
	}
	bm25, err := q.weightOf(p.rd, dfs, q.times(boost))
	if err != nil || bm25 == nil {
		return loop.None{}, err
	}
	n.BM25 = bm25
	n.Norms, err = p.rd.Norms(q.field)
	return n, err
}

// matchable reports whether the loop matches q where its score is never read (a bool's
// filter, constant_score): phrases, multi_match's phrase type (a dis_max of a phrase, or
// of a term for a one-word phrase, per field), and the queries the loop scores.
func matchable(q bq.Query, c *Context) bool {
	switch x := q.(type) {
	case *phraseQuery:
		return true
	case *disMaxQuery:
		for _, sub := range x.queries {
			if !matchable(sub, c) {
				return false
			}
		}
		return true
	}
	return Loopable(q, c)
}

// matchOnly plans a query matchable reports on, its documents only: phrases without
// their statistics, the fields of a dis_max as one disjunction.
func (p *planner) matchOnly(q bq.Query) (loop.Node, error) {
	switch x := q.(type) {
	case *phraseQuery:
		return p.phrase(x, 1, false)
	case *disMaxQuery:
		subs := make([]loop.Node, 0, len(x.queries))
		for _, sub := range x.queries {
			n, err := p.matchOnly(sub)
			if err != nil {
				return nil, err
			}
			subs = append(subs, n)
		}
		return disjunctionOf(subs, 1), nil
	}
	return p.node(q, 1)
}
