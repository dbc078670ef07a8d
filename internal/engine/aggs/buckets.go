package aggs

import (
	"encoding/json"
	"math"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/mapping"
	"github.com/aislehq/aisle/internal/engine/query"
)

var jsonMarshal = json.Marshal

// bucketQuery selects the documents of one terms bucket.
func bucketQuery(a *Agg, v value) bq.Query {
	field := a.Leaf.Path
	if v.raw == "\x00missing" {
		b := bleve.NewBooleanQuery()
		b.AddMust(bleve.NewMatchAllQuery())
		b.AddMustNot(query.Exists(field, a.Leaf))
		return b
	}
	switch {
	case a.Leaf.Type == "keyword":
		q := bleve.NewTermQuery(v.str)
		q.SetField(field)
		return q
	case a.Leaf.Type == "boolean":
		q := bleve.NewBoolFieldQuery(v.num == 1)
		q.SetField(field)
		return q
	case a.Leaf.Type == "date":
		t := time.UnixMilli(int64(v.num))
		incl := true
		q := query.NewDateRange(t, t.Add(time.Millisecond), &incl, new(bool))
		q.SetField(field)
		return q
	}
	incl := true
	n := v.num
	q := query.NewNumericRange(&n, &n, &incl, &incl)
	q.SetField(field)
	return q
}

func (r *Runner) termBucket(base bq.Query, a *Agg, v value) (map[string]any, error) {
	b := map[string]any{"doc_count": v.count}
	switch {
	case a.Leaf.Type == "keyword":
		b["key"] = v.str
	case a.Leaf.Type == "boolean" || a.Leaf.Type == "date":
		b["key"] = int64(v.num)
		b["key_as_string"] = v.str
	case mapping.Integral(a.Leaf.Type):
		b["key"] = int64(v.num)
	default:
		b["key"] = v.num
	}
	if len(a.Subs) == 0 {
		return b, nil
	}
	subs, _, err := r.level(bleve.NewConjunctionQuery(base, bucketQuery(a, v)), a.Subs)
	if err != nil {
		return nil, err
	}
	for k, val := range subs {
		b[k] = val
	}
	return b, nil
}

// floorDate rounds epoch millis down to the start of its interval.
func floorDate(a *Agg, ms int64) int64 {
	if a.Fixed > 0 {
		step := a.Fixed.Milliseconds()
		return int64(math.Floor(float64(ms)/float64(step))) * step
	}
	t := time.UnixMilli(ms).UTC()
	var f time.Time
	switch a.Calendar {
	case "m":
		f = t.Truncate(time.Minute)
	case "h":
		f = t.Truncate(time.Hour)
	case "d":
		f = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	case "w":
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		f = d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
	case "M":
		f = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "q":
		f = time.Date(t.Year(), ((t.Month()-1)/3)*3+1, 1, 0, 0, 0, 0, time.UTC)
	case "y":
		f = time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return f.UnixMilli()
}

func nextDate(a *Agg, ms int64) int64 {
	if a.Fixed > 0 {
		return ms + a.Fixed.Milliseconds()
	}
	t := time.UnixMilli(ms).UTC()
	switch a.Calendar {
	case "m":
		return t.Add(time.Minute).UnixMilli()
	case "h":
		return t.Add(time.Hour).UnixMilli()
	case "d":
		return t.AddDate(0, 0, 1).UnixMilli()
	case "w":
		return t.AddDate(0, 0, 7).UnixMilli()
	case "M":
		return t.AddDate(0, 1, 0).UnixMilli()
	case "q":
		return t.AddDate(0, 3, 0).UnixMilli()
	}
	return t.AddDate(1, 0, 0).UnixMilli()
}

func (r *Runner) histogramAgg(fr *search.FacetResult, base bq.Query, a *Agg) (map[string]any, error) {
	counts := map[int64]int{}
	if a.Leaf != nil {
		for _, v := range values(fr, a) {
			counts[floorDate(a, int64(v.num))] += v.count
		}
	}
	buckets := []any{}
	lo, hi, ok := histogramBounds(a, counts)
	if !ok {
		return map[string]any{"buckets": buckets}, nil
	}
	for k := lo; k <= hi; k = nextDate(a, k) {
		n := counts[k]
		if n < a.MinDocCount || (n == 0 && a.MinDocCount > 0) {
			continue
		}
		b, err := r.histogramBucket(base, a, k, n)
		if err != nil {
			return nil, err
		}
		buckets = append(buckets, b)
		if len(buckets) > 65535 {
			break
		}
	}
	return map[string]any{"buckets": buckets}, nil
}

// histogramBounds is the range of bucket keys: from the lowest to the highest key with
// documents, widened to extended_bounds when empty buckets are wanted; ok is false when
// there is no bucket at all.
func histogramBounds(a *Agg, counts map[int64]int) (lo, hi int64, ok bool) {
	for k := range counts {
		if !ok || k < lo {
			lo = k
		}
		if !ok || k > hi {
			hi = k
		}
		ok = true
	}
	if a.MinDocCount != 0 {
		return lo, hi, ok
	}
	if a.BoundsMin != nil && (!ok || floorDate(a, *a.BoundsMin) < lo) {
		lo = floorDate(a, *a.BoundsMin)
		if !ok {
			hi = lo
		}
		ok = true
	}
	if a.BoundsMax != nil && (!ok || floorDate(a, *a.BoundsMax) > hi) {
		hi = floorDate(a, *a.BoundsMax)
		if !ok {
			lo = hi
		}
		ok = true
	}
	return lo, hi, ok
}

// histogramBucket renders the bucket of key k with n documents and its sub-aggregations.
func (r *Runner) histogramBucket(base bq.Query, a *Agg, k int64, n int) (map[string]any, error) {
	b := map[string]any{"key": k, "key_as_string": formatKey(a, k), "doc_count": n}
	if len(a.Subs) == 0 {
		return b, nil
	}
	incl, excl := true, false
	q := query.NewDateRange(time.UnixMilli(k), time.UnixMilli(nextDate(a, k)), &incl, &excl)
	q.SetField(a.Leaf.Path)
	subs, _, err := r.level(bleve.NewConjunctionQuery(base, q), a.Subs)
	if err != nil {
		return nil, err
	}
	for sk, sv := range subs {
		b[sk] = sv
	}
	return b, nil
}

func formatKey(a *Agg, ms int64) string {
	t := time.UnixMilli(ms).UTC()
	switch a.Format {
	case "yyyy-MM-dd":
		return t.Format("2006-01-02")
	case "yyyy-MM":
		return t.Format("2006-01")
	case "yyyy":
		return t.Format("2006")
	case "epoch_millis":
		return time.UnixMilli(ms).UTC().Format("") + itoa(ms)
	}
	return mapping.FormatDate(t)
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
