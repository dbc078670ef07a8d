package esmapping

import (
	"encoding/json"
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
// query parser, which coerces query values the same way).
func ToNumber(v any, typ string) (float64, error) { return toNumber(v, typ) }

func toNumber(v any, typ string) (float64, error) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		p, err := strconv.ParseFloat(string(x), 64)
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
			return 0, fmt.Errorf("Value [%v] is out of range for %s", f, typ)
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
