package searcher

import (
	"os"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/store"
)

// loopOn turns the engine's own search loop on; AISLE_SEARCH_LOOP=off turns it off, for
// measuring the two paths against each other.
var loopOn = os.Getenv("AISLE_SEARCH_LOOP") != "off"

// route is how a search runs, decided once for its plan (see routeOf): where its
// aggregations are collected and what finds its hits.
type route struct {
	aggs aggsRoute
	hits hitsRoute
}

type aggsRoute int

const (
	noAggs aggsRoute = iota
	// aggsInHits: the hits search feeds the aggregations' collector as it matches.
	aggsInHits
	// aggsPerIndex: a search of each index of its own collects them, as ES does per
	// shard, or the request cache answers it.
	aggsPerIndex
)

type hitsRoute int

const (
	// hitsBleve: bleve's searchers and collector.
	hitsBleve hitsRoute = iota
	// hitsLoop: the engine's own search loop (package loop). It hands the search back to
	// bleve only where the index's reader shows what the request could not: segments that
	// are not scorch's, or keyword sort values that bleve ranks apart (see runLoop).
	hitsLoop
	// hitsCollapsed: the collapse's searches (see collapser.search).
	hitsCollapsed
	// noHitsSearch: no hit is asked for and the aggregations' searches count the total.
	noHitsSearch
)

// routeCase is what a search's route depends on.
type routeCase struct {
	loopOn    bool
	indices   int
	size      int
	aggs      bool
	collapsed bool
	// loopQuery: the loop runs every part of the query (dsl.Loopable).
	loopQuery bool
	// loopSorts: hits are ranked by score or by sort clauses the loop reads (see
	// loopSorts).
	loopSorts bool
	after     bool // search_after
	named     bool // the query names clauses (matched_queries)
}

// routeOf decides how a search runs. Aggregations are collected in the hits search when
// hits are asked of a single index, else apart. The loop finds the hits when it answers
// as bleve would: one index, aggregations collected in its pass (or none), a query and a
// sort it runs, and no option that needs bleve's searchers (collapse, search_after, named
// queries); a post_filter the loop runs itself.
func routeOf(c routeCase) route {
	r := route{aggs: noAggs, hits: hitsBleve}
	switch {
	case c.aggs && c.indices == 1 && c.size > 0:
		r.aggs = aggsInHits
	case c.aggs:
		r.aggs = aggsPerIndex
	}
	switch {
	case c.size == 0 && r.aggs == aggsPerIndex:
		r.hits = noHitsSearch
	case c.size > 0 && c.collapsed:
		r.hits = hitsCollapsed
	case c.loopOn && c.indices == 1 && c.size > 0 && r.aggs != aggsPerIndex && c.loopQuery &&
		c.loopSorts && !c.after && !c.named:
		r.hits = hitsLoop
	}
	return r
}

// routeCase reads the case of a plan whose query, sort, post_filter and collapse are set.
func (p *plan) routeCase(indices []*store.Index, r *Request) routeCase {
	c := routeCase{loopOn: loopOn, indices: len(indices), size: r.Size, aggs: p.aggs != nil,
		collapsed: r.Collapse != nil, after: p.req.SearchAfter != nil, named: p.named}
	if !c.loopOn || c.indices != 1 {
		return c // the loop is out of the question: spare reading the query and the sort
	}
	c.loopQuery = dsl.Loopable(p.query, p.qc)
	c.loopSorts = true
	if p.sorted() {
		p.loopSpecs, c.loopSorts = loopSorts(p.req.Sort, p.sortTypes, p.qc.Leaf)
	}
	return c
}
