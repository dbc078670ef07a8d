package dsl

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/numeric"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// Numbers and dates are indexed at full precision only (one term per value instead of
// bleve's sixteen precision steps, see mapping), so bleve's own range searchers, which
// need the coarse terms, cannot be used: these queries keep bleve's range query values,
// validation and JSON, and match from per-segment columns of the full-precision terms.
// As in ES, a range matches with a constant score (the boost).

// NumericRange is a numeric range query read from columns.
type NumericRange struct{ *bq.NumericRangeQuery }

// NewNumericRange is bleve.NewNumericRangeInclusiveQuery read from columns.
func NewNumericRange(min, max *float64, minIncl, maxIncl *bool) *NumericRange {
	return &NumericRange{bq.NewNumericRangeInclusiveQuery(min, max, minIncl, maxIncl)}
}

// Searcher implements bq.Query.
func (q *NumericRange) Searcher(_ context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return rangeSearcher(r, q, m, q.BoostVal.Value(), o)
}

func (q *NumericRange) bounds(m mapping.IndexMapping) (string, int64, int64, error) {
	lo, hi := int64Bounds(q.Min, q.Max, q.InclusiveMin, q.InclusiveMax)
	return fieldOr(q.FieldVal, m), lo, hi, nil
}

// DateRange is a date range query read from columns; dates are indexed as Unix nanos.
type DateRange struct{ *bq.DateRangeQuery }

// NewDateRange is bleve.NewDateRangeInclusiveQuery read from columns.
func NewDateRange(start, end time.Time, startIncl, endIncl *bool) *DateRange {
	return &DateRange{bq.NewDateRangeInclusiveQuery(start, end, startIncl, endIncl)}
}

// Searcher implements bq.Query.
func (q *DateRange) Searcher(_ context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return rangeSearcher(r, q, m, q.BoostVal.Value(), o)
}

// bounds reads the endpoints as Unix nanos. ES takes dates of years 0 to 9999; the
// nanosecond columns hold 1677 to 2262 only (bleve refuses a range beyond), so an
// endpoint beyond them is an infinity: past the far end of its side, it leaves that side
// open; past the near end, the range holds no date.
func (q *DateRange) bounds(m mapping.IndexMapping) (string, int64, int64, error) {
	min := dateEndpoint(q.Start.Time, math.Inf(-1))
	max := dateEndpoint(q.End.Time, math.Inf(1))
	lo, hi := int64Bounds(&min, &max, q.InclusiveStart, q.InclusiveEnd)
	return fieldOr(q.FieldVal, m), lo, hi, nil
}

// dateEndpoint is t in Unix nanos, open (a zero time) when t is zero.
func dateEndpoint(t time.Time, open float64) float64 {
	switch {
	case t.IsZero():
		return open
	case t.Before(bq.MinRFC3339CompatibleTime):
		return math.Inf(-1)
	case t.After(bq.MaxRFC3339CompatibleTime):
		return math.Inf(1)
	}
	return numeric.Int64ToFloat64(t.UnixNano())
}

// columnRange is a range query answered from columns.
type columnRange interface {
	bq.Query
	bounds(m mapping.IndexMapping) (field string, lo, hi int64, err error)
}

// rangeCheck is a range resolved against one reader: per segment, the run of ordinals
// whose values are in range.
type rangeCheck struct {
	cols     []*columns.Column
	from, to []uint32
	any      bool // some segment has a value in range
}

func resolve(v *columns.View, q columnRange, m mapping.IndexMapping) (*rangeCheck, error) {
	field, lo, hi, err := q.bounds(m)
	if err != nil {
		return nil, err
	}
	cols, err := v.Field(field, columns.FullPrecision)
	if err != nil {
		return nil, err
	}
	c := &rangeCheck{cols: cols, from: make([]uint32, len(cols)), to: make([]uint32, len(cols))}
	for i, col := range cols {
		c.from[i], c.to[i] = ordRange(col, lo, hi)
		c.any = c.any || c.from[i] < c.to[i]
	}
	return c, nil
}

// has reports whether document local of segment seg has a value in the range.
func (c *rangeCheck) has(seg int, local uint64) bool {
	return c.cols[seg].AnyIn(local, c.from[seg], c.to[seg])
}

func fieldOr(f string, m mapping.IndexMapping) string {
	if f == "" {
		return m.DefaultSearchField()
	}
	return f
}

// int64Bounds turns range endpoints into inclusive bounds on the sortable int64 encoding,
// exactly as bleve's NumericRangeSearcher does.
func int64Bounds(min, max *float64, minIncl, maxIncl *bool) (lo, hi int64) {
	if min != nil {
		lo = numeric.Float64ToInt64(*min)
	} else {
		lo = numeric.Float64ToInt64(math.Inf(-1))
	}
	if max != nil {
		hi = numeric.Float64ToInt64(*max)
	} else {
		hi = numeric.Float64ToInt64(math.Inf(1))
	}
	if minIncl != nil && !*minIncl && lo != math.MaxInt64 {
		lo++
	}
	// bleve's default for a missing inclusiveMax is exclusive.
	if (maxIncl == nil || !*maxIncl) && hi != math.MinInt64 {
		hi--
	}
	return lo, hi
}

// rangeSearcher matches every live document with a value in range.
func rangeSearcher(r index.IndexReader, q columnRange, m mapping.IndexMapping, boost float64, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("range queries need a scorch index, got %T", r)
	}
	c, err := resolve(v, q, m)
	if err != nil {
		return nil, err
	}
	if !c.any {
		return searcher.NewMatchNoneSearcher(r)
	}
	return columns.NewRangeSearcher(v, c.cols, c.from, c.to, boost, o), nil
}

// ordRange is the run [from, to) of a column's terms whose value lies in [lo, hi],
// found among the column's decoded values (decoded once per column, not at each step of
// each search).
func ordRange(col *columns.Column, lo, hi int64) (from, to uint32) {
	vals := col.Int64s()
	f := sort.Search(len(vals), func(i int) bool { return vals[i] >= lo })
	t := sort.Search(len(vals), func(i int) bool { return vals[i] > hi })
	if t < f {
		t = f
	}
	return uint32(f), uint32(t)
}
