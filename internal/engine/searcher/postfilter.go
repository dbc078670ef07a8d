package searcher

import (
	"context"
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/dsl"
)

// postFilter is a search's post_filter: it narrows the hits, and their total, after the
// aggregations have seen every match of the query, as in ES (the filtered facets of a
// faceted search count the values the shopper has not chosen yet).
type postFilter struct {
	q    bq.Query
	pred *dsl.Pred // q as a column predicate, when it is one
}

// newPostFilter parses raw (nil: no post_filter).
func newPostFilter(raw any, qc *dsl.Context) (*postFilter, error) {
	if raw == nil {
		return nil, nil
	}
	q, err := dsl.ParseValue(raw, qc)
	if err != nil {
		return nil, err
	}
	return &postFilter{q: q, pred: dsl.PredicateOf(q, qc)}, nil
}

// wrap returns q narrowed to the filter. It goes around the aggregations' collector
// (see aggs.Collector.Wrap), never inside it, and shares memo with the collector's
// filters: the memo of the search pass (see dsl.Memo).
func (f *postFilter) wrap(q bq.Query, memo *dsl.Memo) bq.Query {
	if f == nil {
		return q
	}
	return &postFiltered{Query: q, f: f, memo: memo}
}

type postFiltered struct {
	bq.Query
	f    *postFilter
	memo *dsl.Memo
}

func (q *postFiltered) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("post_filter needs a scorch index, got %T", r)
	}
	inner, err := q.Query.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	match, err := dsl.NewMatcher(ctx, q.f.q, q.f.pred, r, v, m, q.memo)
	if err != nil {
		return nil, errors.Join(err, inner.Close())
	}
	return &postFilterSearcher{Searcher: inner, m: match, v: v}, nil
}

// postFilterSearcher passes on the inner searcher's matches that match the filter.
type postFilterSearcher struct {
	search.Searcher
	m    *dsl.Matcher
	v    *columns.View
	hint int
}

func (s *postFilterSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	d, err := s.Searcher.Next(ctx)
	return s.keep(ctx, d, err)
}

func (s *postFilterSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	d, err := s.Searcher.Advance(ctx, id)
	return s.keep(ctx, d, err)
}

// keep returns d if it matches the filter, else the next match that does.
func (s *postFilterSearcher) keep(ctx *search.SearchContext, d *search.DocumentMatch, err error) (*search.DocumentMatch, error) {
	for d != nil && err == nil {
		seg, local := s.v.Locate(d.IndexInternalID, s.hint)
		s.hint = seg
		ok, merr := s.m.Matches(seg, local, d.IndexInternalID.Value())
		if merr != nil || ok {
			return d, merr
		}
		ctx.DocumentMatchPool.Put(d)
		d, err = s.Searcher.Next(ctx)
	}
	return d, err
}

func (s *postFilterSearcher) Close() error { return errors.Join(s.Searcher.Close(), s.m.Close()) }
