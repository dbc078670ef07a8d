package searcher

import (
	"context"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/loop"
	"github.com/aislehq/aisle/internal/engine/store"
)

// loopRuns counts the searches the loop answered.
var loopRuns atomic.Int64

// searchLoop finds the hits of a search routed to the loop (hitsLoop) in ix; ok is false
// when ix's reader sends it back to bleve (see runLoop).
func (p *plan) searchLoop(ctx context.Context, ix *store.Index) (res *bleve.SearchResult, ok bool, err error) {
	bi := ix.Bleve()
	adv, err := bi.Advanced()
	if err != nil {
		return nil, false, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, false, err
	}
	defer r.Close() //nolint:errcheck // closing the reader of a finished search
	res, ok, err = p.runLoop(ctx, r, bi.Mapping())
	if err != nil || !ok {
		return nil, false, err
	}
	res.Hits, err = loopHits(r, bi.Name(), res.Hits)
	loopRuns.Add(1)
	return res, true, err
}

// runLoop plans the query over r and runs it; ok is false when the loop cannot run it
// as bleve would over r's segments.
func (p *plan) runLoop(ctx context.Context, r index.IndexReader, m mapping.IndexMapping) (*bleve.SearchResult, bool, error) {
	segs, ok := loop.SegmentsOf(r)
	if !ok {
		return nil, false, nil
	}
	node, err := dsl.LoopPlan(ctx, p.query, p.qc, r, m)
	if err != nil {
		return nil, false, err
	}
	c, ok, err := p.newLoopCollector(ctx, r, m)
	if err != nil || !ok {
		return nil, false, err
	}
	defer c.close() //nolint:errcheck // closing the post_filter's searcher of a finished search
	res, err := c.run(ctx, segs, node, p.req.From)
	return res, err == nil, err
}

// loopHits gives the hits their ids and their index's name.
func loopHits(r index.IndexReader, name string, hits bsearch.DocumentMatchCollection) (bsearch.DocumentMatchCollection, error) {
	for _, h := range hits {
		id, err := r.ExternalID(h.IndexInternalID)
		if err != nil {
			return nil, err
		}
		h.ID, h.Index = id, name
	}
	return hits, nil
}
