package searcher

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/store"
)

// search finds the plan's hits and collects its aggregations the way its route says.
func (p *plan) search(ctx context.Context, indices []*store.Index, r *Request) (*bleve.SearchResult, aggs.Result, error) {
	if p.route.aggs == aggsPerIndex {
		return p.searchShards(ctx, indices, r)
	}
	res, err := p.searchHits(ctx, indices)
	if err != nil || p.route.aggs == noAggs {
		return res, aggs.Result{}, err
	}
	return res, p.coll.Reduce(), nil
}

// searchHits finds the plan's hits the way its route says.
func (p *plan) searchHits(ctx context.Context, indices []*store.Index) (*bleve.SearchResult, error) {
	switch p.route.hits {
	case hitsCollapsed:
		return p.collapse.search(ctx, indices, p.req.Query)
	case hitsLoop:
		if res, ok, err := p.searchLoop(ctx, indices[0]); ok || err != nil {
			return res, err
		}
	}
	return Searchable(indices).SearchInContext(ctx, p.req)
}

// searchShards collects the aggregations with one search per index, run in parallel as
// ES runs them per shard, or takes them from the request cache, and the hits with one
// search over all the indices, which is skipped when no hit is asked for (noHitsSearch):
// the total is then the sum of the indices' matches.
func (p *plan) searchShards(ctx context.Context, indices []*store.Index, r *Request) (*bleve.SearchResult, aggs.Result, error) {
	g, gctx := errgroup.WithContext(ctx)
	shards := make([]shardResult, len(indices))
	key, cacheable := requestKeyOf(indices, r)
	for i, ix := range indices {
		g.Go(func() (err error) {
			shards[i], err = p.searchShard(gctx, ix, key, cacheable)
			return err
		})
	}
	var hits *bleve.SearchResult
	if p.route.hits != noHitsSearch {
		g.Go(func() (err error) {
			hits, err = p.searchHits(gctx, indices)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, aggs.Result{}, err
	}
	results := make([]aggs.Result, len(shards))
	var total uint64
	for i, s := range shards {
		results[i], total = s.aggs, total+s.total
	}
	if hits == nil {
		hits = &bleve.SearchResult{Total: total}
	}
	return hits, aggs.Merge(results...), nil
}

// searchShard collects the aggregations of one index; a cacheable request (see
// requestKeyOf, whose key it completes for ix) goes through the request cache.
func (p *plan) searchShard(ctx context.Context, ix *store.Index, key requestKey, cacheable bool) (shardResult, error) {
	if cacheable {
		key = key.of(ix)
		if cached, ok := requestCache.Get(key); ok {
			return cached, nil
		}
	}
	c := aggs.NewCollector(p.aggs)
	// A pass of its own: another may search the same reader at the same time.
	c.Index, c.Memo = ix.Name, dsl.NewMemo()
	defer c.Close() //nolint:errcheck // closing searchers of a finished search
	req := bleve.NewSearchRequestOptions(p.post.wrap(c.Wrap(p.query), c.Memo), 0, 0, false)
	if !aggs.NeedScores(p.aggs) {
		req.Score = bleve.ScoreNone
	}
	res, err := ix.Bleve().SearchInContext(ctx, req)
	if err != nil {
		return shardResult{}, err
	}
	out := shardResult{total: res.Total, aggs: c.Reduce()}
	if cacheable {
		cacheResult(key, out)
	}
	return out, nil
}
