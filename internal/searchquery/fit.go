package searchquery

import (
	"math"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/esmapping"
)

// A filter value must fit its field as the index maps it: Elasticsearch refuses a term
// or a range whose value its field type cannot parse ("abc" on a long, "maybe" on a
// boolean), and that refusal must be the client's 400, not the backend's failure.

// maxLong bounds the whole-number types: Elasticsearch refuses a value out of a long's
// range rather than rounding it.
const maxLong = float64(math.MaxInt64)

// fitValue says why v cannot be compared with field f ("" when it can). A field no
// record holds yet takes any scalar: it matches nothing either way.
func fitValue(f Field, v any) string {
	switch f.Kind {
	case KindNumber:
		if _, ok := numberOf(f, v); !ok {
			return "must be a number, as field " + strconv.Quote(f.Path) + " holds numbers"
		}
	case KindBool:
		if _, ok := boolOf(v); !ok {
			return "must be true or false, as field " + strconv.Quote(f.Path) + " holds booleans"
		}
	case KindDate:
		if !dateOf(v) {
			return "must be a date (RFC 3339 or yyyy-mm-dd) or epoch milliseconds, as field " + strconv.Quote(f.Path) + " holds dates"
		}
	case KindOther:
		return "field " + strconv.Quote(f.Path) + " holds values that cannot be filtered on"
	}
	return ""
}

// numberOf converts v (a number or a numeric string, as Elasticsearch coerces) to a
// finite number the field's type can hold.
func numberOf(f Field, v any) (float64, bool) {
	x, err := esmapping.ToNumber(v, f.Type)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, false
	}
	if esmapping.Integral(f.Type) && (x >= maxLong || x < -maxLong) {
		return 0, false
	}
	return x, true
}

func boolOf(v any) (bool, bool) {
	b, err := esmapping.ToBool(v)
	if s, isString := v.(string); isString && s == "" {
		return false, false
	}
	return b, err == nil
}

// dateOf accepts a date string or epoch milliseconds.
func dateOf(v any) bool {
	switch x := v.(type) {
	case float64:
		return !math.IsInf(x, 0) && math.Abs(x) < 1e15
	case string:
		return isDate(x)
	}
	return false
}

// finiteNumber parses a decimal written as a string ("1e400" is not one).
func finiteNumber(s string) (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return x, err == nil && !math.IsInf(x, 0) && !math.IsNaN(x)
}
