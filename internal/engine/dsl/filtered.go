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

// rangeFilter keeps the matches of inner that every range holds, checked per candidate
// with a column lookup. As bleve filters the ranges would be searchers of their own,
// advanced in step with the candidates through a conjunction; filters never score, so
// checking them per candidate gives the same hits and scores for a fraction of the cost.
func rangeFilter(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, ranges []columnRange, inner search.Searcher) (search.Searcher, error) {
	if len(ranges) == 0 {
		return inner, nil
	}
	v, ok := columns.ViewOf(r)
	if !ok {
		_ = inner.Close()
		return nil, fmt.Errorf("range queries need a scorch index, got %T", r)
	}
	checks := make([]*rangeCheck, len(ranges))
	for i, rq := range ranges {
		c, err := resolve(v, rq, m)
		if err != nil {
			_ = inner.Close()
			return nil, err
		}
		if !c.any {
			_ = inner.Close()
			return searcher.NewMatchNoneSearcher(r)
		}
		checks[i] = c
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
