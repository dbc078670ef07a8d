package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// Matcher tells whether documents of one reader match a query, documents being asked
// about in increasing order (the same one possibly again): from columns when the query
// is a predicate (see PredicateOf), otherwise by advancing the query's searcher in step
// with the documents asked about, which costs a skip in its postings rather than a
// search per document. Filter aggregations and post_filter check documents this way.
type Matcher struct {
	check   Check
	s       search.Searcher
	sctx    *search.SearchContext
	cur     *search.DocumentMatch
	curID   uint64
	done    bool
	scratch index.IndexInternalID
}

// NewMatcher binds q (and pred, its predicate or nil) to a reader and its view; memo,
// when not nil, shares the checks of the search's identical predicate leaves.
func NewMatcher(ctx context.Context, q bq.Query, pred *Pred, r index.IndexReader, v *columns.View, m mapping.IndexMapping, memo *Memo) (*Matcher, error) {
	if pred != nil {
		check, err := pred.bind(v, m, memo.leaves(r))
		if err != nil {
			return nil, err
		}
		return &Matcher{check: check}, nil
	}
	s, err := q.Searcher(ctx, r, m, search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	pool := search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0)
	return &Matcher{s: s, sctx: &search.SearchContext{DocumentMatchPool: pool, IndexReader: r},
		scratch: make(index.IndexInternalID, 8)}, nil
}

// Matches checks document id (local in segment seg), advancing the searcher to it unless
// it is already there or past it.
func (f *Matcher) Matches(seg int, local, id uint64) (bool, error) {
	if f.check != nil {
		return f.check(seg, local), nil
	}
	if !f.done && (f.cur == nil || f.curID < id) {
		f.sctx.DocumentMatchPool.Put(f.cur)
		f.scratch.SetValue(id)
		next, err := f.s.Advance(f.sctx, f.scratch)
		if err != nil {
			return false, err
		}
		f.cur = next
		if next == nil {
			f.done = true
		} else {
			f.curID = next.IndexInternalID.Value()
		}
	}
	return !f.done && f.curID == id, nil
}

// Close releases the searcher, if any.
func (f *Matcher) Close() error {
	if f.s == nil {
		return nil
	}
	return f.s.Close()
}
