package search

import (
	"context"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/store"
)

// search finds the plan's hits and collects its aggregations. On a single index one
// search does both (the query feeds the collector as it matches).
func (p *plan) search(ctx context.Context, indices []*store.Index) (*bleve.SearchResult, error) {
	if p.coll == nil || len(indices) == 1 {
		return Searchable(indices).SearchInContext(ctx, p.req)
	}
	return p.searchShards(ctx, indices)
}

// searchShards collects the aggregations with one search per index, run in parallel as
// ES runs them per shard, and the hits with one search over all the indices, which is
// skipped when no hit is asked for: the total is then the sum of the indices' matches.
func (p *plan) searchShards(ctx context.Context, indices []*store.Index) (*bleve.SearchResult, error) {
	g, gctx := errgroup.WithContext(ctx)
	var total atomic.Uint64
	wrapped := p.coll.Wrap(p.query)
	for _, ix := range indices {
		g.Go(func() error {
			req := bleve.NewSearchRequestOptions(wrapped, 0, 0, false)
			req.Score = bleve.ScoreNone
			res, err := ix.Bleve().SearchInContext(gctx, req)
			if err == nil {
				total.Add(res.Total)
			}
			return err
		})
	}
	var hits *bleve.SearchResult
	if p.req.Size > 0 {
		g.Go(func() (err error) {
			hits, err = Searchable(indices).SearchInContext(gctx, p.req)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if hits == nil {
		hits = &bleve.SearchResult{Total: total.Load()}
	}
	return hits, nil
}

// aggregations reduces what the plan's searches collected and renders it.
func (p *plan) aggregations(typedKeys bool) (map[string]any, error) {
	return aggs.Render(p.coll.Reduce(), p.aggs, typedKeys)
}
