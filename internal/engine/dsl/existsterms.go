package dsl

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// existsTerms is exists on a field whose own terms say which documents have it (keyword,
// numeric, date and boolean fields that are indexed; see mapping.ExistsFromTerms). It
// matches the documents with any ordinal in the field's columns, with a constant score as
// ES's exists does; such fields are not listed in _field_names, which saves a tenth of all
// postings at indexing.
type existsTerms struct {
	field string
	boost float64
}

func newExistsTerms(field string) *existsTerms { return &existsTerms{field: field, boost: 1} }

// SetBoost implements bq.BoostableQuery.
func (q *existsTerms) SetBoost(b float64) { q.boost = b }

// Boost implements bq.BoostableQuery.
func (q *existsTerms) Boost() float64 { return q.boost }

// Searcher implements bq.Query.
func (q *existsTerms) Searcher(_ context.Context, r index.IndexReader, _ mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("exists queries need a scorch index, got %T", r)
	}
	cols, err := v.Field(q.field, "")
	if err != nil {
		return nil, err
	}
	from, to := make([]uint32, len(cols)), make([]uint32, len(cols))
	any := false
	for i, c := range cols {
		to[i] = uint32(len(c.Terms))
		any = any || to[i] > 0
	}
	if !any {
		return searcher.NewMatchNoneSearcher(r)
	}
	return columns.NewRangeSearcher(v, cols, from, to, q.boost, o), nil
}
