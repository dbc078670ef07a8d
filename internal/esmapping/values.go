package esmapping

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Scalar conversions of JSON values under a field type, shared by documents and queries.

// ScalarString is a scalar JSON value as text, as ES indexes it into a keyword.
func ScalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// DateInput is a JSON value as ParseDate takes it: numbers as float64.
func DateInput(v any) any {
	if n, ok := v.(json.Number); ok {
		f, _ := n.Float64()
		return f
	}
	return v
}

// ToNumber converts a JSON value to a number under a numeric field type (exported for the
// query parser, which coerces query values the same way): as a query value, which may lie
// past what a long or a float holds (a range query clamps it).
func ToNumber(v any, typ string) (float64, error) { return toNumber(v, typ) }

// DocumentNumber converts a document's value under a numeric field type: a number the
// type cannot hold is refused with ErrOutOfRange, as ES refuses the document rather
// than round it.
func DocumentNumber(v any, typ string) (float64, error) {
	f, err := toNumber(v, typ)
	if err != nil {
		return 0, err
	}
	if !fits(v, f, typ) {
		return 0, outOfRange(v, typ)
	}
	return f, nil
}

// fits reports whether a long, float or half_float holds v (f as a double).
func fits(v any, f float64, typ string) bool {
	switch typ {
	case "long":
		if n, ok := v.(json.Number); ok {
			// Exactly, for an integer: a double cannot tell 2^63-1, which a long holds, from
			// 2^63. A number with a fraction or an exponent is judged as a double.
			if _, err := strconv.ParseInt(string(n), 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
				return err == nil
			}
		}
		return f >= -0x1p63 && f < 0x1p63
	case "float":
		// ES rounds to the nearest float: refused only when that is infinite.
		return !math.IsInf(float64(float32(f)), 0)
	case "half_float":
		return math.Abs(f) < 65520 // the least magnitude rounding past 65504, the largest half
	}
	return true
}

// ErrOutOfRange: a number the field's type cannot hold; ES refuses it rather than
// round it. Errors match it with errors.Is and read as ES's.
var ErrOutOfRange = errors.New("out of range")

type rangeError struct {
	v   any
	typ string
}

func (e rangeError) Error() string {
	return fmt.Sprintf("Value [%v] is out of range for %s", e.v, e.typ)
}
func (e rangeError) Is(target error) bool { return target == ErrOutOfRange }

func outOfRange(v any, typ string) error { return rangeError{v, typ} }

func toNumber(v any, typ string) (float64, error) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		p, err := strconv.ParseFloat(string(x), 64)
		if errors.Is(err, strconv.ErrRange) {
			return 0, outOfRange(x, typ)
		}
		if err != nil {
			return 0, err
		}
		f = p
	case float64:
		f = x
	case int:
		f = float64(x)
	case string:
		p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, fmt.Errorf("For input string: \"%s\"", x)
		}
		f = p
	case bool:
		return 0, fmt.Errorf("Current token (VALUE_%s) not numeric, can not use numeric value accessors", strings.ToUpper(strconv.FormatBool(x)))
	default:
		return 0, fmt.Errorf("not a number")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("[%s] supports only finite values, but got [%v]", typ, f)
	}
	if Integral(typ) {
		f = math.Trunc(f)
		lim := map[string]float64{"integer": math.MaxInt32, "short": math.MaxInt16, "byte": math.MaxInt8}[typ]
		if lim > 0 && (f > lim || f < -lim-1) {
			return 0, outOfRange(f, typ)
		}
	}
	return f, nil
}

// ToBool converts a JSON value to a boolean under ES's rules: true, false, "true", "false" or "".
func ToBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		switch x {
		case "true":
			return true, nil
		case "false", "":
			return false, nil
		}
	}
	return false, fmt.Errorf("Failed to parse value [%s] as only [true] or [false] are allowed.", Preview(v))
}

// Preview renders a value as ES's error messages show it.
func Preview(v any) string {
	switch x := v.(type) {
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}
