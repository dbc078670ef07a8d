package searcher

import (
	"context"
	"os"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/docsort"
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
	on      bool
	indices int
	size    int
	// unsortable: the request sorts by a clause the loop does not rank by (see
	// loopSorts).
	unsortable bool
	after      bool // search_after
	collapsed  bool
	named      bool // the query names clauses (matched_queries)
	// aggsApart: the aggregations are collected by searches of their own, not in the
	// hits search.
	aggsApart bool
}

// loopable reports whether the loop answers the case as bleve would: one index, hits
// ranked by score or by a sort of clauses the loop reads, and no option that needs
// bleve's searchers (collapse, search_after, named queries). The query itself is checked
// by dsl.Loopable; a post_filter is checked in the loop.
func loopable(c loopCase) bool {
	return c.on && c.indices == 1 && c.size > 0 && !c.unsortable && !c.after && !c.collapsed &&
		!c.named && !c.aggsApart
}

func (p *plan) loopCase(indices []*store.Index) loopCase {
	_, sortable := p.loopSorts()
	return loopCase{on: loopOn, indices: len(indices), size: p.req.Size, unsortable: !sortable,
		after: p.req.SearchAfter != nil, collapsed: p.collapse != nil, named: p.named,
		aggsApart: p.aggs != nil && p.coll == nil}
}

// loopSorts are the sort clauses the loop ranks hits by: nil to rank them by score.
func (p *plan) loopSorts() ([]docsort.Spec, bool) {
	if !p.sorted() {
		return nil, true
	}
	return loopSorts(p.req.Sort, p.sortTypes, p.qc.Leaf)
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
	node, ok, err := dsl.LoopPlan(p.query, p.qc, r, m)
	if err != nil || !ok {
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
