package searcher

import (
	"bytes"
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// parseFields reads the `fields` retrieval option: field names or patterns (`*`
// wildcards), as strings or {"field": name} objects; `format` and include_unmapped are
// outside the engine.
func parseFields(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	out := make([]string, 0, len(list))
	for _, el := range list {
		switch x := el.(type) {
		case string:
			out = append(out, x)
		case map[string]any:
			f, ok := x["field"].(string)
			if !ok || len(x) != 1 {
				return nil, eserr.IllegalArgument("[fields] takes field names, or objects with [field] alone: [format] and [include_unmapped] are not supported by this engine")
			}
			out = append(out, f)
		default:
			return nil, eserr.Parsing("[fields] must be an array of field names")
		}
	}
	return out, nil
}

// fieldValues are a hit's `fields`: for each mapped leaf a pattern names, the values of
// its source path (a multi-field's are its parent's), arrays flattened, keyword and text
// values as strings, as ES reads them from _source. Nil when none has a value.
func fieldValues(m *mapper.Mapping, source []byte, patterns []string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(source))
	dec.UseNumber()
	var src any
	if err := dec.Decode(&src); err != nil {
		return nil, err
	}
	leaves := m.Leaves()
	names := make([]string, 0, len(leaves))
	for p := range leaves {
		names = append(names, p)
	}
	sort.Strings(names)
	out := map[string]any{}
	for _, p := range names {
		if !matchesAny(p, patterns) {
			continue
		}
		l := leaves[p]
		at := p
		if parent, ok := multiFieldParent(leaves, p); ok {
			at = parent
		}
		var vals []any
		collect(src, strings.Split(at, "."), func(v any) { vals = append(vals, fieldValue(l.Mapped, v)...) })
		if len(vals) > 0 {
			out[p] = vals
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func matchesAny(p string, patterns []string) bool {
	for _, pat := range patterns {
		if ok, _ := path.Match(pat, p); ok || pat == p {
			return true
		}
	}
	return false
}

// multiFieldParent is the leaf a multi-field (title.keyword) reads its values from.
func multiFieldParent(leaves map[string]*mapper.Leaf, p string) (string, bool) {
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return "", false
	}
	_, ok := leaves[p[:i]]
	return p[:i], ok
}

// collect calls each with the values at a path of a source, through arrays and dotted
// keys.
func collect(v any, parts []string, each func(any)) {
	if arr, ok := v.([]any); ok {
		for _, el := range arr {
			collect(el, parts, each)
		}
		return
	}
	if len(parts) == 0 {
		if v != nil {
			each(v)
		}
		return
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for i := 1; i <= len(parts); i++ {
		if child, ok := obj[strings.Join(parts[:i], ".")]; ok {
			collect(child, parts[i:], each)
		}
	}
}

// fieldValue is one source value as a field of type typ shows it in `fields`; a
// dense_vector's array is its values.
func fieldValue(typ string, v any) []any {
	switch {
	case typ == mapper.DenseVector:
		if arr, ok := v.([]any); ok {
			return arr
		}
		return []any{v}
	case typ == "boolean", mapper.Numeric(typ):
		return []any{v}
	}
	if s, ok := v.(string); ok {
		return []any{s}
	}
	b, _ := json.Marshal(v)
	return []any{strings.Trim(string(b), `"`)}
}
