package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/loop"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// LoopPlan plans a search's query (as Top returns it) for the engine's own search loop
// (package loop) over one reader, scored as its scorer would score it. The query must be
// one the loop runs (Loopable): the searcher decides, once, which path a search takes.
func LoopPlan(ctx context.Context, q bq.Query, c *Context, r index.IndexReader, m mapping.IndexMapping) (loop.Node, error) {
	p, err := newPlanner(ctx, r, m, c)
	if err != nil {
		return nil, err
	}
	return p.node(q, 1)
}

// Loopable reports whether the loop runs every part of q: term queries (those of match
// and multi_match), dis_max (multi_match's best_fields and most_fields), match_none, bool
// queries of these (see loopableBool), phrases (match_phrase, multi_match's phrase
// type), and constant_score, fuzzy, knn, prefix and terms queries (see loopableMore).
func Loopable(q bq.Query, c *Context) bool {
	switch x := q.(type) {
	case *termQuery, *phraseQuery, *bq.MatchNoneQuery:
		return true
	case *disMaxQuery:
		return allLoopable(x.queries, c)
	case *boolQuery:
		return loopableBool(x, c)
	}
	return loopableMore(q, c)
}

func allLoopable(qs []bq.Query, c *Context) bool {
	for _, q := range qs {
		if !Loopable(q, c) {
			return false
		}
	}
	return true
}

type planner struct {
	// ctx bounds what planning runs itself (a kNN clause's filter and search).
	ctx  context.Context
	r    index.IndexReader
	rd   *scoring.Reader
	view *columns.View
	m    mapping.IndexMapping
	c    *Context
	// phrases are the terms of the phrases planned, by field and terms (see phraseTerms).
	phrases map[string]*plannedTerms
}

func newPlanner(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, c *Context) (*planner, error) {
	rd, err := scoring.ReaderOf(r)
	if err != nil {
		return nil, err
	}
	v, _ := columns.ViewOf(r) // a scorch reader, as ReaderOf checked
	return &planner{ctx: ctx, r: r, rd: rd, view: v, m: m, c: c}, nil
}

// node plans q under its ancestors' boost, as q's scorer would be built.
func (p *planner) node(q bq.Query, boost float32) (loop.Node, error) {
	switch x := q.(type) {
	case *termQuery:
		return p.term(x, boost)
	case *phraseQuery:
		return p.phrase(x, boost, true)
	case *disMaxQuery:
		subs, err := p.nodes(x.queries, x.times(boost))
		if err != nil || len(subs) == 1 {
			return first(subs), err
		}
		return &loop.Disjunction{Subs: subs, Min: 1, DisMax: true, Tie: x.tie}, nil
	case *boolQuery:
		return p.boolNode(x, boost)
	}
	return p.moreNode(q, boost)
}

func first(ns []loop.Node) loop.Node {
	if len(ns) == 0 {
		return nil
	}
	return ns[0]
}

func (p *planner) nodes(qs []bq.Query, boost float32) ([]loop.Node, error) {
	return planEach(qs, func(q bq.Query) (loop.Node, error) { return p.node(q, boost) })
}

// term is termQuery.scorer's plan, with the term's postings lists read once for its
// statistics and its search: nothing when no document holds the term.
func (p *planner) term(q *termQuery, boost float32) (loop.Node, error) {
	lists, df, err := p.rd.Postings(q.t.Field, q.t.Term)
	if err != nil || df == 0 {
		return loop.None{}, err
	}
	fs, err := p.rd.FieldStats(q.t.Field)
	if err != nil {
		return nil, err
	}
	st := scoring.TermStats{DocFreq: df, Field: fs}
	return p.scoredTerm(q.t, lists, q.t.Weight(st, q.times(boost)))
}
