package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// Matcher tells whether documents of one reader match a query, documents being asked
// about in increasing order (the same one possibly again): from columns when the query
// is a predicate (see PredicateOf), otherwise by advancing the query's searcher in step
// with the documents asked about (a scoring.Follower), which costs a skip in its
// postings rather than a search per document. Filter aggregations and post_filter check
// documents this way.
type Matcher struct {
	check   Check
	f       *scoring.Follower
	sctx    *search.SearchContext
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
	f := scoring.NewFollower(s)
	pool := search.NewDocumentMatchPool(f.DocumentMatchPoolSize(), 0)
	return &Matcher{f: f, sctx: &search.SearchContext{DocumentMatchPool: pool, IndexReader: r},
		scratch: make(index.IndexInternalID, 8)}, nil
}

// Matches checks document id (local in segment seg).
func (f *Matcher) Matches(seg int, local, id uint64) (bool, error) {
	if f.check != nil {
		return f.check(seg, local), nil
	}
	f.scratch.SetValue(id)
	return f.f.On(f.sctx, f.scratch)
}

// Close releases the searcher, if any.
func (f *Matcher) Close() error {
	if f.f == nil {
		return nil
	}
	return f.f.Close()
}
