package yamlrest

import (
	"fmt"
	"math/big"
)

// assertion checks one path of the last response against an expected value
// (nil for is_true/is_false/exists, whose argument is only a path).
type assertion func(x *execution, path string, expected any) error

var assertions map[string]assertion

func init() {
	assertions = map[string]assertion{
		"match":    assertMatch,
		"length":   assertLength,
		"is_true":  assertTruth(true),
		"is_false": assertTruth(false),
		"exists":   assertExists,
		"contains": assertContains,
		"close_to": assertCloseTo,
		"gt":       assertOrder("gt", func(c int) bool { return c > 0 }),
		"gte":      assertOrder("gte", func(c int) bool { return c >= 0 }),
		"lt":       assertOrder("lt", func(c int) bool { return c < 0 }),
		"lte":      assertOrder("lte", func(c int) bool { return c <= 0 }),
	}
}

// eachPair applies a to the step's argument: a bare path, or a mapping of
// paths to expected values (stash references resolved).
func (x *execution) eachPair(s Step, a assertion) error {
	if path, ok := s.Arg.(string); ok {
		return a(x, path, nil)
	}
	if s.Arg == nil {
		return a(x, "", nil)
	}
	m, ok := s.Arg.(map[string]any)
	if !ok {
		return fmt.Errorf("%s needs a path or a mapping", s.Op)
	}
	for _, path := range sortedKeys(m) {
		exp, err := x.stash.Resolve(m[path])
		if err != nil {
			return err
		}
		if err := a(x, path, exp); err != nil {
			return err
		}
	}
	return nil
}

func assertMatch(x *execution, path string, expected any) error {
	pattern, isRegex := regexLiteral(expected)
	actual, found, err := x.actual(path, isRegex)
	if err != nil {
		return err
	}
	if isRegex {
		if !found || actual == nil {
			return fmt.Errorf("%s: expected a match for /%s/ but the field is missing", pathOrRoot(path), pattern)
		}
		ok, err := matchRegex(pattern, true, actual)
		if err == nil && !ok {
			err = fmt.Errorf("%s: %q does not match /%s/", pathOrRoot(path), javaString(actual), pattern)
		}
		return err
	}
	if !found && expected != nil {
		return fmt.Errorf("%s: expected %s but the field is missing", pathOrRoot(path), toJSON(expected))
	}
	if d := equalValues(path, expected, actual); d != "" {
		return fmt.Errorf("%s", d)
	}
	return nil
}

func assertLength(x *execution, path string, expected any) error {
	actual, found, err := x.actual(path, false)
	if err != nil {
		return err
	}
	var n int
	switch a := actual.(type) {
	case string:
		n = len([]rune(a))
	case []any:
		n = len(a)
	case map[string]any:
		n = len(a)
	default:
		if !found {
			return fmt.Errorf("%s: field is missing", pathOrRoot(path))
		}
		return fmt.Errorf("%s: %s has no length", pathOrRoot(path), toJSON(actual))
	}
	if equalValues(path, expected, n) != "" {
		return fmt.Errorf("%s: expected length %s but was %d", pathOrRoot(path), toJSON(expected), n)
	}
	return nil
}

func assertTruth(want bool) assertion {
	return func(x *execution, path string, _ any) error {
		actual, found, err := x.actual(path, false)
		if err != nil {
			return err
		}
		if truthy(actual, found) != want {
			if !found {
				return fmt.Errorf("%s: expected a true value but the field is missing", pathOrRoot(path))
			}
			return fmt.Errorf("%s: expected a %v value but was %s", pathOrRoot(path), want, toJSON(actual))
		}
		return nil
	}
}

func assertExists(x *execution, path string, _ any) error {
	actual, found, err := x.actual(path, false)
	if err == nil && (!found || actual == nil) {
		err = fmt.Errorf("%s: expected the field to exist", pathOrRoot(path))
	}
	return err
}

func assertContains(x *execution, path string, expected any) error {
	actual, _, err := x.actual(path, false)
	if err == nil && !containsValue(actual, expected) {
		err = fmt.Errorf("%s: %s does not contain %s", pathOrRoot(path), toJSON(actual), toJSON(expected))
	}
	return err
}

func assertCloseTo(x *execution, path string, expected any) error {
	m, _ := expected.(map[string]any)
	want, ok1 := asNumber(m["value"])
	tol, ok2 := asNumber(m["error"])
	if !ok1 || !ok2 {
		return fmt.Errorf("close_to needs numeric value and error")
	}
	actual, _, err := x.actual(path, false)
	if err != nil {
		return err
	}
	got, ok := asNumber(actual)
	if !ok {
		return fmt.Errorf("%s: %s is not a number", pathOrRoot(path), toJSON(actual))
	}
	d := new(big.Rat).Sub(got, want)
	if d.Abs(d).Cmp(tol) > 0 {
		return fmt.Errorf("%s: %s is not within %s of %s", pathOrRoot(path), got.FloatString(6), tol.FloatString(6), want.FloatString(6))
	}
	return nil
}

func assertOrder(op string, ok func(int) bool) assertion {
	return func(x *execution, path string, expected any) error {
		actual, found, err := x.actual(path, false)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("%s: field is missing", pathOrRoot(path))
		}
		c, err := compareOrdered(actual, expected)
		if err != nil {
			return err
		}
		if !ok(c) {
			return fmt.Errorf("%s: expected %s %s %s", pathOrRoot(path), toJSON(actual), op, toJSON(expected))
		}
		return nil
	}
}
