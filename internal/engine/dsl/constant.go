package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// constantQuery is constant_score: its filter's documents, each scored its boost.
type constantQuery struct {
	boosted
	filter bq.Query
}

func parseConstantScore(c *Context, body any) (bq.Query, error) {
	m, err := asObject("constant_score", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("constant_score", m, "filter"); err != nil {
		return nil, err
	}
	f, ok := m["filter"]
	if !ok {
		return nil, eserr.Parsing("[constant_score] requires a 'filter' element")
	}
	inner, err := c.parse(f)
	if err != nil {
		return nil, err
	}
	return applyBoost(&constantQuery{boosted: unboosted(), filter: inner}, m)
}

// Searcher implements bq.Query.
func (q *constantQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		return q.filter.Searcher(ctx, r, m, o)
	})
}

func (q *constantQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	s, err := q.filter.Searcher(ctx, r, m, matchOnly(o))
	if err != nil {
		return nil, err
	}
	return scoring.NewConstant(s, q.times(boost)), nil
}
