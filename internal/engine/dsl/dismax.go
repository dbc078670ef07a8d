package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// disMaxQuery is Lucene's DisjunctionMaxQuery: a document's score is its best query's
// plus tie times the others'. multi_match joins its fields' queries with one.
type disMaxQuery struct {
	boosted
	queries []bq.Query
	tie     float32
}

func newDisMax(qs []bq.Query, tie float32) *disMaxQuery {
	return &disMaxQuery{boosted: unboosted(), queries: qs, tie: tie}
}

func parseDisMax(c *Context, body any) (bq.Query, error) {
	m, err := asObject("dis_max", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("dis_max", m, "queries", "tie_breaker"); err != nil {
		return nil, err
	}
	raw, ok := m["queries"].([]any)
	if !ok || len(raw) == 0 {
		return nil, eserr.Parsing("[dis_max] requires 'queries' field with at least one clause")
	}
	qs, err := c.parseList(raw)
	if err != nil {
		return nil, err
	}
	tie := 0.0
	if v, ok := m["tie_breaker"]; ok {
		if tie, err = num(v); err != nil {
			return nil, eserr.Parsing("[dis_max] tie_breaker must be a number")
		}
	}
	return applyBoost(newDisMax(qs, float32(tie)), m)
}

// Searcher implements bq.Query.
func (q *disMaxQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		if len(q.queries) == 1 {
			return q.queries[0].Searcher(ctx, r, m, o)
		}
		return bleve.NewDisjunctionQuery(q.queries...).Searcher(ctx, r, m, o)
	})
}

func (q *disMaxQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	subs, err := scorers(ctx, q.queries, r, m, o, q.times(boost))
	if err != nil {
		return nil, err
	}
	return disjunction(subs, 1, scoring.DisMax(q.tie)), nil
}
