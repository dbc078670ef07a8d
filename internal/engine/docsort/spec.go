// Package docsort holds Elasticsearch sort clauses: parsing them, and ordering documents
// by them from per-segment columns (internal/engine/columns), for the searches that
// rank documents themselves instead of through bleve's collector: the engine's search
// loop (internal/engine/loop), whose hits follow a sort's clauses after the score;
// collapse, which keeps the best document of each group; and the top_hits aggregation,
// which keeps the best documents of each bucket.
package docsort

import (
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Spec is one sort clause.
type Spec struct {
	Field        string
	Desc         bool
	MissingFirst bool
	UnmappedType string
}

// Parse reads a sort value: a field name, an object of fields to orders or options, or
// an array of those.
func Parse(v any) ([]Spec, error) {
	var out []Spec
	for _, e := range listOf(v) {
		switch x := e.(type) {
		case string:
			out = append(out, Spec{Field: x, Desc: x == "_score"})
		case map[string]any:
			for field, spec := range x {
				s, err := parseField(field, spec)
				if err != nil {
					return nil, err
				}
				out = append(out, s)
			}
		default:
			return nil, eserr.Parsing("[sort] malformed sort")
		}
	}
	return out, nil
}

func parseField(field string, spec any) (Spec, error) {
	s := Spec{Field: field, Desc: field == "_score"}
	switch y := spec.(type) {
	case string:
		return s, setOrder(&s, y)
	case map[string]any:
		for k, val := range y {
			if err := s.setOption(k, val); err != nil {
				return s, err
			}
		}
		return s, nil
	}
	return s, eserr.Parsing("[sort] malformed sort for field [%s]", field)
}

func (s *Spec) setOption(k string, val any) error {
	str, _ := val.(string)
	switch k {
	case "order":
		return setOrder(s, str)
	case "missing":
		if str != "_last" && str != "_first" {
			return eserr.IllegalArgument("[sort] missing value [%v] is not supported by this engine (only _first and _last)", val)
		}
		s.MissingFirst = str == "_first"
	case "unmapped_type":
		s.UnmappedType = str
	case "mode", "numeric_type", "format":
		if k == "mode" && str != "min" && str != "max" && str != "" {
			return eserr.IllegalArgument("[sort] mode [%s] is not supported by this engine", str)
		}
	default:
		return eserr.Parsing("[field_sort] unknown field [%s]", k)
	}
	return nil
}

func setOrder(s *Spec, o string) error {
	switch strings.ToLower(o) {
	case "asc":
		s.Desc = false
	case "desc":
		s.Desc = true
	default:
		return eserr.IllegalArgument("Unknown SortOrder [%s]", o)
	}
	return nil
}

func listOf(v any) []any {
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}
