package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// scored is a query that scores as Lucene 9 does (see package scoring). Lucene multiplies
// a query's boost into its clauses as it builds their weights, so a scored query builds
// its scoring searcher with the product of its ancestors' boosts; its Searcher, without
// scores, only matches.
type scored interface {
	bq.Query
	scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error)
}

// scorerOf is q's scoring searcher under its ancestors' boost. A query that is not scored
// matches with a constant score, its boost, as Elasticsearch's range, terms, prefix, ids,
// exists and match_all do.
func scorerOf(ctx context.Context, q bq.Query, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	if s, ok := q.(scored); ok {
		return s.scorer(ctx, r, m, o, boost)
	}
	inner, err := q.Searcher(ctx, r, m, matchOnly(o))
	if err != nil {
		return nil, err
	}
	return scoring.NewConstant(inner, ownBoost(q)*boost), nil
}

// ownBoost is the boost a query that is not scored gives its constant score.
func ownBoost(q bq.Query) float32 {
	if bb, ok := q.(bq.BoostableQuery); ok {
		return float32(bb.Boost())
	}
	return 1
}

// searcherOf is the Searcher of a scored query: its scorer when scores are wanted, with
// no boost from ancestors; match, when not.
func searcherOf(ctx context.Context, q scored, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, match func() (search.Searcher, error)) (search.Searcher, error) {
	if wantsScores(o) {
		return q.scorer(ctx, r, m, o, 1)
	}
	return match()
}

func wantsScores(o search.SearcherOptions) bool { return o.Score != "none" }

// matchOnly are the options of a clause whose scores are not read (filters, must_not,
// constant_score), which lets bleve skip reading frequencies and norms.
func matchOnly(o search.SearcherOptions) search.SearcherOptions {
	o.Score = "none"
	o.Explain = false
	return o
}

// boosted is a scored query's own boost, a float as in Elasticsearch; it implements
// bq.BoostableQuery, so applyBoost sets it.
type boosted struct{ own float32 }

func unboosted() boosted { return boosted{own: 1} }

// SetBoost implements bq.BoostableQuery.
func (b *boosted) SetBoost(v float64) { b.own = float32(v) }

// Boost implements bq.BoostableQuery.
func (b *boosted) Boost() float64 { return float64(b.own) }

// times is the boost the query's clauses get: its own times its ancestors', the order of
// Lucene's BoostQuery.createWeight.
func (b *boosted) times(ancestors float32) float32 { return b.own * ancestors }

// Top is the query of a search: a query that is not scored is made to score its
// constant, as it would as a clause.
func Top(q bq.Query) bq.Query {
	if _, ok := q.(scored); ok {
		return q
	}
	return &topQuery{Query: q}
}

type topQuery struct{ bq.Query }

// Searcher implements bq.Query.
func (q *topQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	if wantsScores(o) {
		return scorerOf(ctx, q.Query, r, m, o, 1)
	}
	return q.Query.Searcher(ctx, r, m, o)
}
