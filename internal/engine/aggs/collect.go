package aggs

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/dsl"
)

// Collector computes a search's aggregations in the pass that finds its hits, as
// Lucene's aggregation framework does: each index searched (a shard) feeds its matching
// documents, in document order, to a tree of aggregators, one per aggregation, which
// count from per-segment columns. A bucket's sub-aggregations are collected in the same
// pass, keyed by the bucket's number, instead of searching again per bucket. The
// shards' results are reduced by key and rendered with ES's rules (render.go).
type Collector struct {
	aggs   []*Agg
	mu     sync.Mutex
	shards []*shard
	// Index names the index searched, in top_hits' hits.
	Index string
	// Memo, when set, shares the filters' checks with the search's other predicates.
	Memo *dsl.Memo
}

// NewCollector returns a collector of aggs.
func NewCollector(aggs []*Agg) *Collector { return &Collector{aggs: aggs} }

// Wrap returns q with its searcher feeding the collector. A search over several indices
// calls the wrapped query's Searcher once per index, possibly concurrently: each call
// is a shard of its own.
func (c *Collector) Wrap(q bq.Query) bq.Query { return &collectQuery{Query: q, c: c} }

// doc is one matching document of a shard.
type doc struct {
	seg   int     // its segment in the shard's view
	local uint64  // its number in the segment
	id    uint64  // its number in the shard's reader
	score float64 // its score, when the search scores
}

// aggregator collects one aggregation of one shard. owner is the number of the parent's
// bucket the document fell in (0 at the top level and under single-bucket parents).
type aggregator interface {
	collect(d doc, owner int) error
	// result is what owner's bucket collected, keyed by value for the reduce.
	result(owner int) *partial
	close() error
}

// shard is the collection state of one index reader.
type shard struct {
	ctx   context.Context
	view  *columns.View
	r     index.IndexReader
	m     mapping.IndexMapping
	o     search.SearcherOptions
	roots []aggregator
	hint  int // segment of the last document: matches come in order
	index string
	memo  *dsl.Memo
	// all are the shard's aggregators at every level (see finish).
	all []aggregator
}

func (c *Collector) newShard(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (*shard, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("aggregations need a scorch index, got %T", r)
	}
	sh := &shard{ctx: ctx, view: v, r: r, m: m, o: o, index: c.Index, memo: c.Memo}
	roots, err := sh.build(c.aggs)
	if err != nil {
		_ = closeAll(roots)
		return nil, err
	}
	sh.roots = roots
	c.mu.Lock()
	c.shards = append(c.shards, sh)
	c.mu.Unlock()
	return sh, nil
}

// build creates the aggregators of aggs for the shard, their sub-aggregators first.
func (sh *shard) build(aggs []*Agg) ([]aggregator, error) {
	out := make([]aggregator, 0, len(aggs))
	for _, a := range aggs {
		subs, err := sh.build(a.Subs)
		if err != nil {
			return out, err
		}
		ag, err := sh.newAggregator(a, subs)
		if err != nil {
			return out, errors.Join(err, closeAll(subs))
		}
		out = append(out, ag)
		sh.all = append(sh.all, ag)
	}
	return out, nil
}

func (sh *shard) newAggregator(a *Agg, subs []aggregator) (aggregator, error) {
	if k := kinds[a.Type]; k != nil && k.build != nil {
		return k.build(sh, a, subs)
	}
	switch a.Type {
	case "filter":
		return sh.newFilter(a, subs)
	case "terms":
		return sh.newTerms(a, subs)
	case "significant_terms":
		return sh.newSigTerms(a, subs)
	case "date_histogram":
		return sh.newHistogram(a, subs)
	}
	return sh.newMetric(a)
}

// columns returns the field's column per segment, or nil on an unmapped field.
func (sh *shard) columns(a *Agg) ([]*columns.Column, error) {
	if a.Leaf == nil {
		return nil, nil
	}
	prefix := ""
	if a.Leaf.Type != "keyword" && a.Leaf.Type != "boolean" {
		prefix = columns.FullPrecision
	}
	return sh.view.Field(a.Field, prefix)
}

func (sh *shard) collect(id index.IndexInternalID, score float64) error {
	seg, local := sh.view.Locate(id, sh.hint)
	sh.hint = seg
	return collectAll(sh.roots, doc{seg: seg, local: local, id: id.Value(), score: score}, 0)
}

func collectAll(subs []aggregator, d doc, owner int) error {
	for _, s := range subs {
		if err := s.collect(d, owner); err != nil {
			return err
		}
	}
	return nil
}

func resultsOf(subs []aggregator, owner int) []*partial {
	if len(subs) == 0 {
		return nil
	}
	out := make([]*partial, len(subs))
	for i, s := range subs {
		out[i] = s.result(owner)
	}
	return out
}

func closeAll(aggs []aggregator) error {
	var errs []error
	for _, a := range aggs {
		errs = append(errs, a.close())
	}
	return errors.Join(errs...)
}

// Result is the results of some shards' aggregations, merged by value. A Result is not
// changed once made: merging copies, so caches may hold it.
type Result struct{ parts []*partial }

// Reduce merges the shards' top-level results; a search that matched nothing on any
// shard reduces to empty results.
func (c *Collector) Reduce() Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*partial, len(c.aggs))
	for _, sh := range c.shards {
		out = mergeLists(out, resultsOf(sh.roots, 0))
	}
	return Result{parts: out}
}

// Merge reduces the results of several searches of the same aggregations. One result is
// its own reduction: results are never changed once made, so it is not copied.
func Merge(rs ...Result) Result {
	if len(rs) == 1 {
		return rs[0]
	}
	var out []*partial
	for _, r := range rs {
		out = mergeLists(out, r.parts)
	}
	return Result{parts: out}
}

// Buckets counts the result's buckets, at every level: the size of what a cache keeps.
func (r Result) Buckets() int { return countBuckets(r.parts) }

func countBuckets(parts []*partial) int {
	n := 0
	for _, p := range parts {
		if p == nil {
			continue
		}
		n += len(p.buckets) + len(p.distinct)
		for _, b := range p.buckets {
			n += countBuckets(b.subs)
		}
	}
	return n
}

// Close releases the shards' resources (the filters' searchers), once the search is done.
func (c *Collector) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, sh := range c.shards {
		errs = append(errs, closeAll(sh.roots))
	}
	c.shards = nil
	return errors.Join(errs...)
}

// collectQuery wraps the search's query so that its searcher feeds the collector.
type collectQuery struct {
	bq.Query
	c *Collector
}

func (q *collectQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	sh, err := q.c.newShard(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	inner, err := q.Query.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	// Its matches are the query's: a post_filter goes around this searcher.
	return dsl.Tap(inner, func(d *search.DocumentMatch) error { return sh.collect(d.IndexInternalID, d.Score) }, sh.finish), nil
}

// filler is an aggregator that collects documents of its own once the shard's matches
// are all collected (global).
type filler interface{ fill(sh *shard) error }

// finisher is an aggregator with work left once every document is collected, while the
// reader is still open (top_hits reads its hits' ids).
type finisher interface{ finish(sh *shard) error }

// finish runs the top-level fillers, then every finisher, once the matches are all
// collected.
func (sh *shard) finish() error {
	for _, a := range sh.roots {
		if f, ok := a.(filler); ok {
			if err := f.fill(sh); err != nil {
				return err
			}
		}
	}
	for _, a := range sh.all {
		if f, ok := a.(finisher); ok {
			if err := f.finish(sh); err != nil {
				return err
			}
		}
	}
	return nil
}
