package aggs

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// collector counts the terms of every matching document for one level of aggregations,
// from per-segment columns. It replaces bleve's facets, which decode each matching
// document's compressed doc values: an array lookup per document is far cheaper.
type collector struct {
	aggs []*colAgg
	view *columns.View
	hint int
}

// colAgg is one aggregation's counts: per segment, per term ordinal.
type colAgg struct {
	name, field, prefix string
	cols                []*columns.Column
	counts              [][]int
	missing             int
}

// bind builds (or fetches) the columns of the reader's segments.
func (c *collector) bind(r index.IndexReader) error {
	v, ok := columns.ViewOf(r)
	if !ok {
		return fmt.Errorf("aggregations need a scorch index, got %T", r)
	}
	c.view = v
	for _, a := range c.aggs {
		cols, err := v.Field(a.field, a.prefix)
		if err != nil {
			return err
		}
		a.cols, a.counts, a.missing = cols, make([][]int, len(cols)), 0
		for i, col := range cols {
			a.counts[i] = make([]int, len(col.Terms))
		}
	}
	return nil
}

// add counts one matching document.
func (c *collector) add(id index.IndexInternalID) {
	seg, local := c.view.Locate(id, c.hint)
	c.hint = seg
	for _, a := range c.aggs {
		if a.cols[seg].Count(local, a.counts[seg]) == 0 {
			a.missing++
		}
	}
}

// results turns the counts into facet results, as bleve's terms facet would have
// produced them with every term kept.
func (c *collector) results() search.FacetResults {
	out := search.FacetResults{}
	for _, a := range c.aggs {
		byTerm := map[string]int{}
		for s, col := range a.cols {
			for o, n := range a.counts[s] {
				if n > 0 {
					byTerm[string(col.Terms[o])] += n
				}
			}
		}
		fr := &search.FacetResult{Field: a.field, Missing: a.missing, Terms: &search.TermFacets{}}
		for t, n := range byTerm {
			fr.Terms.Add(&search.TermFacet{Term: t, Count: n})
			fr.Total += n
		}
		out[a.name] = fr
	}
	return out
}

// collectQuery wraps the search's query so that its searcher feeds the collector.
type collectQuery struct {
	bq.Query
	c *collector
}

func (q *collectQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	if err := q.c.bind(r); err != nil {
		return nil, err
	}
	inner, err := q.Query.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	return &collectSearcher{Searcher: inner, c: q.c}, nil
}

// collectSearcher sees every document the collector receives: the top-level searcher's
// matches are exactly the search's hits.
type collectSearcher struct {
	search.Searcher
	c *collector
}

func (s *collectSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	d, err := s.Searcher.Next(ctx)
	if d != nil {
		s.c.add(d.IndexInternalID)
	}
	return d, err
}

func (s *collectSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	d, err := s.Searcher.Advance(ctx, id)
	if d != nil {
		s.c.add(d.IndexInternalID)
	}
	return d, err
}
