package searcher

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/loop"
	"github.com/aislehq/aisle/internal/engine/store"
)

// loopOn turns the engine's own search loop on; AISLE_SEARCH_LOOP=off turns it off, for
// measuring the two paths against each other.
var loopOn = os.Getenv("AISLE_SEARCH_LOOP") != "off"

// loopRuns counts the searches the loop answered.
var loopRuns atomic.Int64

// loopCase is what decides whether a search's hits can come from the engine's own search
// loop (package loop): the request's options, its query aside.
type loopCase struct {
	on         bool
	indices    int
	size       int
	sorted     bool // by the request's sort rather than by score
	collapsed  bool
	postFilter bool
	named      bool // the query names clauses (matched_queries)
	// aggsApart: the aggregations are collected by searches of their own, not in the
	// hits search.
	aggsApart bool
}

// loopable reports whether the loop answers the case as bleve would: one index, hits
// ranked by score, and no option that needs bleve's searchers (collapse, post_filter,
// named queries). The query itself is checked by dsl.Loopable.
func loopable(c loopCase) bool {
	return c.on && c.indices == 1 && c.size > 0 && !c.sorted && !c.collapsed &&
		!c.postFilter && !c.named && !c.aggsApart
}

func (p *plan) loopCase(indices []*store.Index) loopCase {
	return loopCase{on: loopOn, indices: len(indices), size: p.req.Size, sorted: p.sorted(),
		collapsed: p.collapse != nil, postFilter: p.post != nil, named: p.named,
		aggsApart: p.aggs != nil && p.coll == nil}
}

// searchLoop finds the hits with the engine's own search loop; ok is false when the
// search must go through bleve instead.
func (p *plan) searchLoop(ctx context.Context, indices []*store.Index) (res *bleve.SearchResult, ok bool, err error) {
	if !loopable(p.loopCase(indices)) || !dsl.Loopable(p.query, p.qc) {
		return nil, false, nil
	}
	bi := indices[0].Bleve()
	adv, err := bi.Advanced()
	if err != nil {
		return nil, false, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, false, err
	}
	defer r.Close() //nolint:errcheck // closing the reader of a finished search
	segs, ok := loop.SegmentsOf(r)
	if !ok {
		return nil, false, nil
	}
	node, ok, err := dsl.LoopPlan(p.query, p.qc, r, bi.Mapping())
	if err != nil || !ok {
		return nil, false, err
	}
	res, err = p.collectLoop(ctx, r, bi.Mapping(), segs, node)
	if err != nil {
		return nil, false, err
	}
	res.Hits, err = loopHits(r, bi.Name(), res.Hits)
	loopRuns.Add(1)
	return res, true, err
}

// collectLoop runs the plan: counts the matches, feeds the aggregations and keeps the
// window of best hits (from + size), as bleve's collector does.
func (p *plan) collectLoop(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, segs *loop.Segments, node loop.Node) (*bleve.SearchResult, error) {
	var feed *aggs.Feed
	if p.coll != nil {
		var err error
		if feed, err = p.coll.Feed(ctx, r, m, bsearch.SearcherOptions{}); err != nil {
			return nil, err
		}
	}
	top := loop.NewTopK(p.req.From + p.req.Size)
	res := &bleve.SearchResult{}
	err := segs.Run(ctx, node, func(seg int, local uint32, score float64) error {
		id := segs.Offset(seg) + uint64(local)
		res.Total++
		res.MaxScore = max(res.MaxScore, score)
		top.Add(score, id)
		if feed != nil {
			return feed.Collect(seg, uint64(local), id, score)
		}
		return nil
	})
	if err == nil && feed != nil {
		err = feed.Finish()
	}
	if err != nil {
		return nil, err
	}
	best := top.Best()
	res.Hits = make(bsearch.DocumentMatchCollection, 0, max(len(best)-p.req.From, 0))
	for _, h := range best[min(p.req.From, len(best)):] {
		res.Hits = append(res.Hits, &bsearch.DocumentMatch{Score: h.Score, IndexInternalID: index.NewIndexInternalID(nil, h.Doc)})
	}
	return res, nil
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
