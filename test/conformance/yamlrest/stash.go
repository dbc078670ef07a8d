package yamlrest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Stash holds values saved by `set` and the raw body of the last response
// (`$body`). It is reset for every test section.
type Stash struct {
	vals map[string]any
}

// NewStash returns an empty stash.
func NewStash() *Stash { return &Stash{vals: map[string]any{}} }

// Set stores a value under key.
func (s *Stash) Set(key string, v any) { s.vals[key] = v }

// Get returns a stashed value.
func (s *Stash) Get(key string) (any, bool) {
	v, ok := s.vals[key]
	return v, ok
}

var embeddedRE = regexp.MustCompile(`(\\)?\$\{([\p{L}\p{N}_\-]+)\}`)

// Resolve replaces stash references in v, recursively through maps (keys
// and values) and lists: "$x" and "${x}" as a whole value become the stashed
// value itself, "${x}" inside a longer string becomes its text.
func (s *Stash) Resolve(v any) (any, error) {
	switch x := v.(type) {
	case string:
		return s.resolveString(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			rk, err := s.resolveString(k)
			if err != nil {
				return nil, err
			}
			re, err := s.Resolve(e)
			if err != nil {
				return nil, err
			}
			out[scalarString(rk)] = re
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			re, err := s.Resolve(e)
			if err != nil {
				return nil, err
			}
			out[i] = re
		}
		return out, nil
	}
	return v, nil
}

func (s *Stash) resolveString(str string) (any, error) {
	if strings.HasPrefix(str, "$") && !strings.HasPrefix(str, "${") {
		return s.lookup(str[1:])
	}
	if m := embeddedRE.FindStringSubmatch(str); m != nil && m[0] == str && m[1] == "" {
		return s.lookup(m[2])
	}
	var err error
	out := embeddedRE.ReplaceAllStringFunc(str, func(ref string) string {
		m := embeddedRE.FindStringSubmatch(ref)
		if m[1] != "" {
			return ref[1:] // an escaped \${x} stays literal
		}
		v, lerr := s.lookup(m[2])
		if lerr != nil {
			err = lerr
			return ref
		}
		return scalarString(v)
	})
	return out, err
}

func (s *Stash) lookup(key string) (any, error) {
	v, ok := s.vals[key]
	if !ok {
		return nil, fmt.Errorf("stashed value [%s] not found", key)
	}
	return v, nil
}

// splitPath splits a dotted path into keys; `\.` escapes a dot inside a key.
func splitPath(path string) []string {
	if path == "" {
		return nil
	}
	var keys []string
	var cur strings.Builder
	for i := 0; i < len(path); i++ {
		switch {
		case path[i] == '\\' && i+1 < len(path) && path[i+1] == '.':
			cur.WriteByte('.')
			i++
		case path[i] == '.':
			keys = append(keys, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(path[i])
		}
	}
	return append(keys, cur.String())
}

// Eval returns the value at a dotted path of doc, after resolving stash
// references inside the path. found is false when a level is missing.
func (s *Stash) Eval(doc any, path string) (v any, found bool, err error) {
	v = doc
	for _, key := range splitPath(path) {
		rk, err := s.resolveString(key)
		if err != nil {
			return nil, false, err
		}
		key = scalarString(rk)
		switch c := v.(type) {
		case map[string]any:
			if v, found = c[key]; !found {
				return nil, false, nil
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false, nil
			}
			v = c[i]
		default:
			return nil, false, nil
		}
	}
	return v, true, nil
}
