package dsl

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// rangeFiltered is a bool query whose range filters are checked on each candidate of the
// scoring clauses with a column lookup. As bleve filters they would be searchers of their
// own, advanced in step with the candidates through a conjunction; filters never score,
// so checking them per candidate gives the same hits and scores for a fraction of the cost.
type rangeFiltered struct {
	*bq.BooleanQuery // the bool query without these filters
	ranges           []columnRange
}

// Searcher implements bq.Query.
func (q *rangeFiltered) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("range queries need a scorch index, got %T", r)
	}
	checks := make([]*rangeCheck, len(q.ranges))
	for i, rq := range q.ranges {
		c, err := resolve(v, rq, m)
		if err != nil {
			return nil, err
		}
		if !c.any {
			return searcher.NewMatchNoneSearcher(r)
		}
		checks[i] = c
	}
	inner, err := q.BooleanQuery.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	hint := 0
	return searcher.NewFilteringSearcher(ctx, inner, func(_ *search.SearchContext, d *search.DocumentMatch) bool {
		seg, local := v.Locate(d.IndexInternalID, hint)
		hint = seg
		for _, c := range checks {
			if !c.has(seg, local) {
				return false
			}
		}
		return true
	}), nil
}

// splitRanges separates the column range queries among filter clauses from the others.
func splitRanges(filters []bq.Query) (ranges []columnRange, rest []bq.Query) {
	for _, f := range filters {
		if r, ok := f.(columnRange); ok {
			ranges = append(ranges, r)
		} else {
			rest = append(rest, f)
		}
	}
	return ranges, rest
}
