package yamlrest

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// regexLiteral returns the pattern of a `/.../` expected value. ES trims the
// value first, so folded YAML (`>`) with a trailing newline still counts.
func regexLiteral(v any) (string, bool) {
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	if len(s) > 1 && strings.HasPrefix(s, "/") && strings.HasSuffix(s, "/") {
		return s[1 : len(s)-1], true
	}
	return "", false
}

// compileExtended compiles a Java regex written for Pattern.COMMENTS (the
// `x` flag ES's `match` uses): unescaped whitespace is dropped and `#` starts
// a comment up to the end of the line. Go's RE2 has no such flag.
func compileExtended(pattern string) (*regexp.Regexp, error) {
	var sb strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case c == '\\' && i+1 < len(pattern):
			sb.WriteByte(c)
			sb.WriteByte(pattern[i+1])
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
		case c == '#':
			for i < len(pattern) && pattern[i] != '\n' {
				i++
			}
		default:
			sb.WriteByte(c)
		}
	}
	return regexp.Compile(sb.String())
}

// matchRegex reports whether the text form of actual contains a match.
func matchRegex(pattern string, extended bool, actual any) (bool, error) {
	var re *regexp.Regexp
	var err error
	if extended {
		re, err = compileExtended(pattern)
	} else {
		re, err = regexp.Compile(pattern)
	}
	if err != nil {
		return false, fmt.Errorf("bad regex /%s/: %w", pattern, err)
	}
	return re.MatchString(javaString(actual)), nil
}

// asNumber returns v as an exact rational when it is a number.
func asNumber(v any) (*big.Rat, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(x) == nil {
			return nil, false
		}
		return r, true
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// equalValues compares like ES's `match`: numbers by value (1 == 1.0),
// maps by exact key set, lists element by element. It returns a
// description of the first difference, or "" when equal.
func equalValues(path string, expected, actual any) string {
	if en, ok := asNumber(expected); ok {
		an, ok := asNumber(actual)
		if !ok || en.Cmp(an) != 0 {
			return diff(path, expected, actual)
		}
		return ""
	}
	switch e := expected.(type) {
	case map[string]any:
		return equalMaps(path, e, actual)
	case []any:
		return equalLists(path, e, actual)
	case nil:
		if actual != nil {
			return diff(path, expected, actual)
		}
		return ""
	}
	if expected != actual {
		return diff(path, expected, actual)
	}
	return ""
}

func equalMaps(path string, e map[string]any, actual any) string {
	a, ok := actual.(map[string]any)
	if !ok {
		return diff(path, e, actual)
	}
	for _, k := range sortedKeys(e) {
		av, has := a[k]
		if !has {
			return fmt.Sprintf("%s: expected key %q is missing", pathOrRoot(path), k)
		}
		if d := equalValues(join(path, k), e[k], av); d != "" {
			return d
		}
	}
	for _, k := range sortedKeys(a) {
		if _, has := e[k]; !has {
			return fmt.Sprintf("%s: unexpected key %q = %s", pathOrRoot(path), k, toJSON(a[k]))
		}
	}
	return ""
}

func equalLists(path string, e []any, actual any) string {
	a, ok := actual.([]any)
	if !ok || len(a) != len(e) {
		return diff(path, e, actual)
	}
	for i := range e {
		if d := equalValues(join(path, fmt.Sprint(i)), e[i], a[i]); d != "" {
			return d
		}
	}
	return ""
}

func diff(path string, expected, actual any) string {
	return fmt.Sprintf("%s: expected %s (%T) but was %s (%T)",
		pathOrRoot(path), toJSON(expected), expected, toJSON(actual), actual)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func pathOrRoot(path string) string {
	if path == "" {
		return "$body"
	}
	return path
}

// truthy follows ES's is_true: present, and its text is not "", "false"
// or "0".
func truthy(v any, found bool) bool {
	if !found || v == nil {
		return false
	}
	switch s := javaString(v); s {
	case "", "false", "0":
		return false
	}
	return true
}

// compareOrdered compares numbers by value and strings lexically, for
// gt/gte/lt/lte.
func compareOrdered(actual, expected any) (int, error) {
	an, aok := asNumber(actual)
	en, eok := asNumber(expected)
	if aok && eok {
		return an.Cmp(en), nil
	}
	as, aok := actual.(string)
	es, eok := expected.(string)
	if aok && eok {
		return strings.Compare(as, es), nil
	}
	return 0, fmt.Errorf("cannot order %s (%T) against %s (%T)", toJSON(actual), actual, toJSON(expected), expected)
}

// containsValue follows ES's `contains`: a list holds an element matching
// the expected value (maps match when they contain the expected entries),
// or a string holds the expected substring.
func containsValue(actual, expected any) bool {
	switch a := actual.(type) {
	case string:
		s, ok := expected.(string)
		return ok && strings.Contains(a, s)
	case []any:
		for _, el := range a {
			if subsetMatch(expected, el) {
				return true
			}
		}
	}
	return false
}

func subsetMatch(expected, actual any) bool {
	e, ok := expected.(map[string]any)
	if !ok {
		return equalValues("", expected, actual) == ""
	}
	a, ok := actual.(map[string]any)
	if !ok {
		return false
	}
	for k, ev := range e {
		if av, has := a[k]; !has || equalValues("", ev, av) != "" {
			return false
		}
	}
	return true
}
