package dsl

import (
	"fmt"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// lookupTerms reads the terms of a terms lookup ({"index", "id", "path"}): the values at
// path in the source of document id of index, read in real time as Elasticsearch's
// TermsLookup GETs it. A missing document gives no terms; a missing index fails.
func lookupTerms(c *Context, lookup map[string]any) ([]any, error) {
	index, _ := lookup["index"].(string)
	id, _ := lookup["id"].(string)
	path, _ := lookup["path"].(string)
	for k := range lookup {
		switch k {
		case "index", "id", "path", "routing":
		default:
			return nil, eserr.Parsing("[terms] query does not support [%s] within lookup element", k)
		}
	}
	if index == "" || id == "" || path == "" {
		return nil, eserr.Parsing("[terms] query lookup element requires specifying the index, the id and the path")
	}
	if c.Corpus == nil {
		return nil, eserr.IllegalArgument("[terms] lookup is not supported here")
	}
	src, found, err := c.Corpus.Source(index, id)
	if err != nil || !found {
		return nil, err
	}
	return valuesAt(src, strings.Split(path, ".")), nil
}

// valuesAt collects the values at a dotted path, through arrays of objects.
func valuesAt(v any, parts []string) []any {
	if len(parts) == 0 {
		switch x := v.(type) {
		case nil:
			return nil
		case []any:
			var out []any
			for _, e := range x {
				out = append(out, valuesAt(e, nil)...)
			}
			return out
		case map[string]any:
			return nil
		default:
			return []any{scalarTerm(x)}
		}
	}
	switch x := v.(type) {
	case map[string]any:
		return valuesAt(x[parts[0]], parts[1:])
	case []any:
		var out []any
		for _, e := range x {
			out = append(out, valuesAt(e, parts)...)
		}
		return out
	}
	return nil
}

// scalarTerm is a looked-up value as a terms query takes it.
func scalarTerm(v any) any {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return v
}
