package merch

import (
	"cmp"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Ranges of conditions' filters (conditions.go): numbers compare as numbers, dates as
// strings in one format (RFC 3339 with the bounds written alike, or yyyy-mm-dd); a bound
// of another kind than the value it is compared with compares with nothing.

// within reports whether every value of range have lies in range want.
func within(have, want searchquery.Range) bool {
	lower := func(w any, strict bool) bool {
		return bounded(have.GT, w, func(c int) bool { return c >= 0 }) ||
			bounded(have.GTE, w, func(c int) bool { return c > 0 || !strict && c == 0 })
	}
	upper := func(w any, strict bool) bool {
		return bounded(have.LT, w, func(c int) bool { return c <= 0 }) ||
			bounded(have.LTE, w, func(c int) bool { return c < 0 || !strict && c == 0 })
	}
	return (want.GT == nil || lower(want.GT, true)) && (want.GTE == nil || lower(want.GTE, false)) &&
		(want.LT == nil || upper(want.LT, true)) && (want.LTE == nil || upper(want.LTE, false))
}

// bounded reports whether bound h exists and compares with w as ok says.
func bounded(h, w any, ok func(int) bool) bool {
	if h == nil {
		return false
	}
	c, comparable := compareValues(h, w)
	return comparable && ok(c)
}

// inRange reports whether v lies in r.
func inRange(v any, r searchquery.Range) bool {
	check := func(bound any, ok func(int) bool) bool {
		if bound == nil {
			return true
		}
		c, comparable := compareValues(v, bound)
		return comparable && ok(c)
	}
	return check(r.GT, func(c int) bool { return c > 0 }) && check(r.GTE, func(c int) bool { return c >= 0 }) &&
		check(r.LT, func(c int) bool { return c < 0 }) && check(r.LTE, func(c int) bool { return c <= 0 })
}

// compareValues compares two numbers or two strings; false for anything else.
func compareValues(a, b any) (int, bool) {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return cmp.Compare(x, y), ok
	}
	x, okA := a.(string)
	y, okB := b.(string)
	return cmp.Compare(x, y), okA && okB
}

// number reads a JSON number (float64 once decoded; int where Go code built the filter).
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}
