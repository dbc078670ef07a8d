// Package searcher executes _search, _count and _delete_by_query requests against bleve:
// request parsing, sorting and search_after, hits with _source filtering, and totals.
package searcher

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// SourceFilter is the _source option: disabled, or includes/excludes path patterns.
type SourceFilter struct {
	Disabled bool
	Includes []string
	Excludes []string
}

// IsIdentity reports whether the full source is returned unchanged.
func (f *SourceFilter) IsIdentity() bool {
	return f == nil || (!f.Disabled && len(f.Includes) == 0 && len(f.Excludes) == 0)
}

// ParseSourceFilter reads the _source body option (bool, string, list or object).
func ParseSourceFilter(v any) (*SourceFilter, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return &SourceFilter{Disabled: !x}, nil
	case string:
		return &SourceFilter{Includes: []string{x}}, nil
	case []any:
		f := &SourceFilter{}
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, eserr.Parsing("[_source] must be a string or an array of strings")
			}
			f.Includes = append(f.Includes, s)
		}
		return f, nil
	case map[string]any:
		f := &SourceFilter{}
		for k, val := range x {
			var list []string
			switch vv := val.(type) {
			case string:
				list = []string{vv}
			case []any:
				for _, e := range vv {
					s, _ := e.(string)
					list = append(list, s)
				}
			default:
				return nil, eserr.Parsing("Unknown key for a %s in [%s].", "VALUE", k)
			}
			switch k {
			case "includes", "include":
				f.Includes = list
			case "excludes", "exclude":
				f.Excludes = list
			default:
				return nil, eserr.Parsing("Unknown key for a START_ARRAY in [%s].", k)
			}
		}
		return f, nil
	}
	return nil, eserr.Parsing("[_source] has an invalid value")
}

// SourceFromParams builds a filter from _source, _source_includes, _source_excludes params.
func SourceFromParams(src, inc, exc string) *SourceFilter {
	f := &SourceFilter{}
	switch src {
	case "":
	case "false":
		f.Disabled = true
	case "true":
	default:
		f.Includes = splitList(src)
	}
	if inc != "" {
		f.Includes = splitList(inc)
	}
	if exc != "" {
		f.Excludes = splitList(exc)
	}
	if f.IsIdentity() {
		return nil
	}
	return f
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Apply filters a raw source; it returns nil when _source is disabled.
func (f *SourceFilter) Apply(raw []byte) json.RawMessage {
	if f.IsIdentity() {
		return raw
	}
	if f.Disabled {
		return nil
	}
	// Numbers stay json.Number so big integers (beyond 2^53) keep every digit.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return raw
	}
	out := f.filter("", m)
	b, _ := json.Marshal(out)
	return b
}

func matchAny(pats []string, p string) bool {
	for _, pat := range pats {
		if pat == p {
			return true
		}
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// prefixOfAny reports whether some include pattern may match below p.
func prefixOfAny(pats []string, p string) bool {
	for _, pat := range pats {
		if strings.HasPrefix(pat, p+".") || strings.HasPrefix(pat, "*") {
			return true
		}
		if i := strings.IndexByte(pat, '*'); i >= 0 && strings.HasPrefix(p, pat[:i]) {
			return true
		}
	}
	return false
}

func (f *SourceFilter) filter(prefix string, m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		p := prefix + k
		if matchAny(f.Excludes, p) {
			continue
		}
		included := len(f.Includes) == 0 || matchAny(f.Includes, p)
		if sub, ok := v.(map[string]any); ok {
			if included {
				if len(f.Excludes) > 0 {
					out[k] = (&SourceFilter{Excludes: f.Excludes}).filter(p+".", sub)
				} else {
					out[k] = sub
				}
				continue
			}
			if prefixOfAny(f.Includes, p) {
				if inner := f.filter(p+".", sub); len(inner) > 0 {
					out[k] = inner
				}
			}
			continue
		}
		if arr, ok := v.([]any); ok && !included && prefixOfAny(f.Includes, p) {
			var kept []any
			for _, e := range arr {
				if sub, ok := e.(map[string]any); ok {
					if inner := f.filter(p+".", sub); len(inner) > 0 {
						kept = append(kept, inner)
					}
				}
			}
			if len(kept) > 0 {
				out[k] = kept
			}
			continue
		}
		if included {
			out[k] = v
		}
	}
	return out
}
