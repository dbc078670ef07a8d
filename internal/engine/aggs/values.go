package aggs

import (
	"cmp"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2/numeric"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

// value is one distinct field value with its document count.
type value struct {
	num   float64 // numbers; dates as epoch millis; booleans 1/0
	str   string
	count int
}

// decodeTerm reads a column term as a value of a's field.
func decodeTerm(a *Agg, term []byte) (value, bool) {
	var v value
	switch a.Leaf.Type {
	case "keyword":
		v.str = string(term)
	case "boolean":
		if string(term) == "T" {
			v.num, v.str = 1, "true"
		} else {
			v.num, v.str = 0, "false"
		}
	case "date":
		i, err := numeric.PrefixCoded(term).Int64()
		if err != nil {
			return v, false
		}
		v.num = float64(dateMillis(i))
		v.str = mapper.FormatDate(time.Unix(0, i))
	default:
		i, err := numeric.PrefixCoded(term).Int64()
		if err != nil {
			return v, false
		}
		v.num = numeric.Int64ToFloat64(i)
	}
	return v, true
}

// keyOf is the identity of a value of a's field: the same term read in two segments or
// two indices has the same key, and so has the `missing` value equal to a term. A
// keyword's key is its term.
func (a *Agg) keyOf(v value) string {
	if a.Leaf == nil || a.Leaf.Type == "keyword" {
		return v.str
	}
	return strconv.FormatFloat(v.num, 'g', -1, 64)
}

func toStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func toNum(v any) float64 {
	f, _ := strconv.ParseFloat(toStr(v), 64)
	return f
}

func less(a *Agg, x, y value) bool {
	for _, o := range a.Order {
		c := compareBy(a, o.Key, x, y)
		if o.Desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
}

// compareBy compares two values by _count or _key.
func compareBy(a *Agg, key string, x, y value) int {
	switch {
	case key == "_count":
		return cmp.Compare(x.count, y.count)
	case a.Leaf.Type == "keyword":
		return cmp.Compare(x.str, y.str)
	}
	return cmp.Compare(x.num, y.num)
}

// floorDate rounds epoch millis down to the start of its interval, intervals being
// shifted by the aggregation's offset.
func floorDate(a *Agg, ms int64) int64 {
	off := a.dateOffset()
	return floorUTC(a, ms-off) + off
}

func floorUTC(a *Agg, ms int64) int64 {
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

// nextDate is the start of the interval after the one starting at ms.
func nextDate(a *Agg, ms int64) int64 {
	off := a.dateOffset()
	return nextUTC(a, ms-off) + off
}

func nextUTC(a *Agg, ms int64) int64 {
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

// histogramBounds is the range of bucket keys: from the lowest to the highest key with
// documents, widened to extended_bounds when empty buckets are wanted; ok is false when
// there is no bucket at all.
func histogramBounds[B any](a *Agg, byKey map[int64]B) (lo, hi int64, ok bool) {
	if a.MinDocCount != 0 {
		return keySpan(byKey)
	}
	var bounds []int64
	for _, b := range []*int64{a.BoundsMin, a.BoundsMax} {
		if b != nil {
			bounds = append(bounds, floorDate(a, *b))
		}
	}
	return keySpan(byKey, bounds...)
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
		return strconv.FormatInt(ms, 10)
	}
	return mapper.FormatDate(t)
}
