package searcher

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Run executes a search and returns the ES response body.
func Run(ctx context.Context, indices []*store.Index, r *Request, o Options) (map[string]any, error) {
	start := time.Now()
	if err := validate(indices, r, o); err != nil {
		return nil, err
	}
	if len(indices) == 0 {
		// Elasticsearch parses the aggregations before it looks for shards: a malformed
		// one is refused even where nothing is searched.
		if _, err := parseAggs(r.Aggs, QueryContext(nil), ""); err != nil {
			return nil, err
		}
		return emptyResponse(r, o), nil
	}
	indices, failed, err := dropFailingIndices(indices, r.Query)
	if err != nil {
		return nil, err
	}
	p, err := newPlan(indices, r)
	if err != nil {
		return nil, err
	}
	if p.coll != nil {
		defer p.coll.Close() //nolint:errcheck // closing searchers of a finished search
	}
	res, aggResult, err := p.search(ctx, indices, r)
	if err != nil {
		return nil, eserr.SearchPhase(eserr.New(400, "query_shard_exception", "failed to execute query: %s", err.Error()).With("index", indices[0].Name))
	}
	hits, err := renderHits(res, indices, r, p)
	if err != nil {
		return nil, err
	}
	if p.collapse != nil {
		if err := p.collapse.expand(ctx, hits, indices, r, o); err != nil {
			return nil, err
		}
	}
	resp := map[string]any{
		"took": time.Since(start).Milliseconds(), "timed_out": false,
		"_shards": shardsWithFailures(len(indices), failed),
		"hits":    hitsObject(res, hits, r, o, p.sorted()),
	}
	if p.aggs != nil {
		out, err := aggs.RenderWith(aggResult, p.aggs, o.TypedKeys, topHitFetcher(indices, r))
		if err != nil {
			return nil, err
		}
		resp["aggregations"] = out
	}
	return resp, nil
}

// validate checks what does not depend on the indices' mappings; it may turn an exact
// track_total_hits into the default for rest_total_hits_as_int.
func validate(indices []*store.Index, r *Request, o Options) error {
	if err := r.Validate(maxWindow(indices)); err != nil {
		return shardCheckOrder(indices, r, err)
	}
	if err := r.checkCollapse(); err != nil {
		return err
	}
	if err := r.CheckOptions(o); err != nil {
		return err
	}
	if o.RestTotalHitsAsInt && r.TrackTotal == 10000 {
		r.TrackTotal = -1
	}
	return nil
}

// CheckOptions applies ES's check of the request against its URL options: totals as
// integers need exact totals.
func (r *Request) CheckOptions(o Options) error {
	if o.RestTotalHitsAsInt && r.TrackTotal > 0 && r.TrackTotal != 10000 {
		return eserr.ActionValidation(fmt.Sprintf("[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got %d", r.TrackTotal))
	}
	return nil
}

func maxWindow(indices []*store.Index) int {
	w := math.MaxInt32
	for _, ix := range indices {
		if m := ix.Settings().MaxResultWindow(); m < w {
			w = m
		}
	}
	if len(indices) == 0 {
		return 10000
	}
	return w
}
