package aggs

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Feed is one shard of a collector fed directly with document numbers, by the engine's
// own search loop (package loop) instead of a wrapped query's searcher.
type Feed struct{ sh *shard }

// Feed opens a shard of the collector over reader r, as the wrapped query's Searcher
// would.
func (c *Collector) Feed(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (*Feed, error) {
	sh, err := c.newShard(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	return &Feed{sh: sh}, nil
}

// Collect collects a matching document: its segment in the reader's view, its number
// there and in the reader, and its score. Documents come in order.
func (f *Feed) Collect(seg int, local, id uint64, score float64) error {
	return collectAll(f.sh.roots, doc{seg: seg, local: local, id: id, score: score}, 0)
}

// Finish ends the collection once every match is collected, while the reader is open.
func (f *Feed) Finish() error { return f.sh.finish() }
