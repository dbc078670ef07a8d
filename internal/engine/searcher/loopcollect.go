package searcher

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/loop"
)

// loopTop keeps the loop's best hits, as bleve's collector ranks them.
type loopTop interface {
	add(seg int, local uint32, doc uint64, score float64)
	// hits are the kept hits from the from-th on, best first.
	hits(from int) bsearch.DocumentMatchCollection
}

// loopCollector takes the loop's matches as bleve's searchers and collector would: the
// aggregations see every match of the query, while the total, the highest score and the
// hits count only those the post_filter passes (see postFilter).
type loopCollector struct {
	feed *aggs.Feed
	post *dsl.Matcher // nil without a post_filter
	top  loopTop
	res  *bleve.SearchResult
}

// newLoopCollector prepares the collection of r's matches; ok is false when the loop
// cannot rank them as bleve would (see sortTermsAsBleve).
func (p *plan) newLoopCollector(ctx context.Context, r index.IndexReader, m mapping.IndexMapping) (c *loopCollector, ok bool, err error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, false, nil
	}
	c = &loopCollector{res: &bleve.SearchResult{}}
	if c.top, ok, err = p.loopTop(v); err != nil || !ok {
		return nil, false, err
	}
	if p.coll != nil {
		if c.feed, err = p.coll.Feed(ctx, r, m, bsearch.SearcherOptions{}); err != nil {
			return nil, false, err
		}
	}
	if p.post != nil {
		// The plan's memo, as in bleve's pass (see postFilter.wrap): the post_filter
		// shares the checks of the aggregations' identical filters.
		c.post, err = dsl.NewMatcher(ctx, p.post.q, p.post.pred, r, v, m, p.memo)
	}
	return c, err == nil, err
}

// loopTop keeps the window's hits by the request's sort, or by score without one.
func (p *plan) loopTop(v *columns.View) (loopTop, bool, error) {
	k := p.req.From + p.req.Size
	specs := p.loopSpecs
	if specs == nil {
		return byScore{loop.NewTopK(k)}, true, nil
	}
	if ok, err := p.sortTermsAsBleve(v, specs); err != nil || !ok {
		return nil, false, err
	}
	sorter, err := docsort.Bind(specs, v, p.qc.Leaf)
	if err != nil {
		return nil, false, err
	}
	return bySort{top: loop.NewKeyedTopK(k, sorter), sorter: sorter}, true, nil
}

// run collects the matches of node over segs and returns the result with the hits from
// the from-th on.
func (c *loopCollector) run(ctx context.Context, segs *loop.Segments, node loop.Node, from int) (*bleve.SearchResult, error) {
	err := segs.Run(ctx, node, func(seg int, local uint32, score float64) error {
		return c.collect(seg, local, segs.Offset(seg)+uint64(local), score)
	})
	if err == nil && c.feed != nil {
		err = c.feed.Finish()
	}
	if err != nil {
		return nil, err
	}
	c.res.Hits = c.top.hits(from)
	return c.res, nil
}

// collect takes a match: local in segment seg, id in the reader.
func (c *loopCollector) collect(seg int, local uint32, id uint64, score float64) error {
	if c.feed != nil {
		if err := c.feed.Collect(seg, uint64(local), id, score); err != nil {
			return err
		}
	}
	if c.post != nil {
		if ok, err := c.post.Matches(seg, uint64(local), id); err != nil || !ok {
			return err
		}
	}
	c.res.Total++
	c.res.MaxScore = max(c.res.MaxScore, score)
	c.top.add(seg, local, id, score)
	return nil
}

func (c *loopCollector) close() error {
	if c.post == nil {
		return nil
	}
	return c.post.Close()
}
