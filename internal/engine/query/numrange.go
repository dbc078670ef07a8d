package query

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

// shiftZero prefixes bleve's full-precision numeric terms.
var shiftZero = string([]byte{numeric.ShiftStartInt64})

// NumericRange is a numeric range query read from columns.
type NumericRange struct{ *bq.NumericRangeQuery }

// NewNumericRange is bleve.NewNumericRangeInclusiveQuery read from columns.
func NewNumericRange(min, max *float64, minIncl, maxIncl *bool) *NumericRange {
	return &NumericRange{bq.NewNumericRangeInclusiveQuery(min, max, minIncl, maxIncl)}
}

// Searcher implements bq.Query.
func (q *NumericRange) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return rangeSearcher(r, fieldOr(q.FieldVal, m), q.Min, q.Max, q.InclusiveMin, q.InclusiveMax, q.BoostVal.Value(), o)
}

// DateRange is a date range query read from columns; dates are indexed as Unix nanos.
type DateRange struct{ *bq.DateRangeQuery }

// NewDateRange is bleve.NewDateRangeInclusiveQuery read from columns.
func NewDateRange(start, end time.Time, startIncl, endIncl *bool) *DateRange {
	return &DateRange{bq.NewDateRangeInclusiveQuery(start, end, startIncl, endIncl)}
}

// Searcher implements bq.Query with bleve's DateRangeQuery endpoint rules.
func (q *DateRange) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	min, max := math.Inf(-1), math.Inf(1)
	for _, e := range []struct {
		t   time.Time
		out *float64
	}{{q.Start.Time, &min}, {q.End.Time, &max}} {
		if e.t.IsZero() {
			continue
		}
		if bq.QueryDateTimeFormat == time.RFC3339 && (e.t.Before(bq.MinRFC3339CompatibleTime) || e.t.After(bq.MaxRFC3339CompatibleTime)) {
			return nil, fmt.Errorf("invalid/unsupported date range, start: %v", e.t)
		}
		*e.out = numeric.Int64ToFloat64(e.t.UnixNano())
	}
	return rangeSearcher(r, fieldOr(q.FieldVal, m), &min, &max, q.InclusiveStart, q.InclusiveEnd, q.BoostVal.Value(), o)
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

// rangeSearcher matches every live document with a value in range: the terms of a column
// are sorted by value, so the accepted values are one run of ordinals per segment.
func rangeSearcher(r index.IndexReader, field string, min, max *float64, minIncl, maxIncl *bool, boost float64, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("range queries need a scorch index, got %T", r)
	}
	cols, err := v.Field(field, shiftZero)
	if err != nil {
		return nil, err
	}
	lo, hi := int64Bounds(min, max, minIncl, maxIncl)
	from, to := make([]uint32, len(cols)), make([]uint32, len(cols))
	any := false
	for i, c := range cols {
		from[i], to[i] = ordRange(c.Terms, lo, hi)
		any = any || from[i] < to[i]
	}
	if !any {
		return searcher.NewMatchNoneSearcher(r)
	}
	return columns.NewRangeSearcher(v, cols, from, to, boost, o), nil
}

// ordRange is the run [from, to) of terms whose value lies in [lo, hi].
func ordRange(terms [][]byte, lo, hi int64) (from, to uint32) {
	val := func(i int) int64 {
		n, err := numeric.PrefixCoded(terms[i]).Int64()
		if err != nil {
			return math.MinInt64
		}
		return n
	}
	f := sort.Search(len(terms), func(i int) bool { return val(i) >= lo })
	t := sort.Search(len(terms), func(i int) bool { return val(i) > hi })
	if t < f {
		t = f
	}
	return uint32(f), uint32(t)
}
