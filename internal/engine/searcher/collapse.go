package searcher

import (
	"encoding/json"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Collapse is a search's collapse: one hit per value of Field, the best of its group, with
// optional inner hits of the group.
type Collapse struct {
	Field     string
	InnerHits []*InnerHits
	// MaxConcurrent bounds the inner hits' searches run at once (0: the engine's choice).
	MaxConcurrent int
}

// InnerHits is one inner_hits of a collapse: the group's hits under Name.
type InnerHits struct {
	Name string
	HitOptions
	Collapse *Collapse // a second level of collapsing, without inner hits of its own
}

// parseCollapse reads a collapse object; nested (inside inner_hits) takes no inner_hits.
func parseCollapse(v any, nested bool) (*Collapse, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, eserr.XContentParse("[1:1] [collapse] must be an object")
	}
	c := &Collapse{}
	for k, val := range m {
		var err error
		switch {
		case k == "field":
			c.Field, _ = val.(string)
		case k == "inner_hits" && nested:
			return nil, eserr.XContentParse("[1:1] [collapse] inner_hits are not allowed in the collapse of an inner_hits")
		case k == "inner_hits":
			c.InnerHits, err = parseInnerHits(val)
		case k == "max_concurrent_group_searches":
			c.MaxConcurrent, err = intValue(k, val)
			if err == nil && c.MaxConcurrent < 1 {
				err = eserr.IllegalArgument("maxConcurrentGroupRequests must be positive, but was %d", c.MaxConcurrent)
			}
		default:
			return nil, eserr.XContentParse("[1:1] [collapse] unknown field [%s]", k)
		}
		if err != nil {
			return nil, err
		}
	}
	if c.Field == "" {
		return nil, eserr.XContentParse("[1:1] [collapse] requires a [field]")
	}
	return c, nil
}

// parseInnerHits reads one inner_hits object or an array of them.
func parseInnerHits(v any) ([]*InnerHits, error) {
	var out []*InnerHits
	names := map[string]bool{}
	for _, e := range listOf(v) {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, eserr.XContentParse("[1:1] [inner_hits] must be an object")
		}
		ih, err := parseInnerHit(m)
		if err != nil {
			return nil, err
		}
		if names[ih.Name] {
			return nil, eserr.IllegalArgument("[inner_hits] already contains an entry for key [%s]", ih.Name)
		}
		names[ih.Name] = true
		out = append(out, ih)
	}
	return out, nil
}

func parseInnerHit(m map[string]any) (*InnerHits, error) {
	opts, err := ParseHitOptions(m, "inner_hits", "name", "collapse")
	if err != nil {
		return nil, err
	}
	ih := &InnerHits{HitOptions: *opts}
	ih.Name, _ = m["name"].(string)
	if raw, ok := m["collapse"]; ok {
		if ih.Collapse, err = parseCollapse(raw, true); err != nil {
			return nil, err
		}
	}
	return ih, nil
}

func listOf(v any) []any {
	if a, ok := v.([]any); ok {
		return a
	}
	return []any{v}
}

// checkCollapse applies ES's request checks of a collapse: it is searched after only when
// sorted on its field alone.
func (r *Request) checkCollapse() error {
	c := r.Collapse
	if c == nil || r.SearchAfter == nil {
		return nil
	}
	if len(r.Sort) != 1 || r.Sort[0].Field != c.Field {
		return eserr.SearchPhase(eserr.IllegalArgument("Cannot use [collapse] in conjunction with [search_after] unless the search is sorted on the same field. Multiple sort fields are not allowed."))
	}
	return nil
}

// collapseConflicts refuses a body that collapses and rescores, as ES 8 before 8.15 does
// (the engine has no rescore; a rescore alone is refused as an unknown key).
func collapseConflicts(body map[string]any) error {
	_, collapse := body["collapse"]
	_, rescore := body["rescore"]
	if collapse && rescore {
		return eserr.ActionValidation("cannot use `collapse` in conjunction with `rescore`")
	}
	return nil
}

// ScrollConflict is the error of a scroll request whose body collapses, nil otherwise.
func ScrollConflict(body []byte) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m["collapse"] == nil {
		return nil
	}
	return eserr.ActionValidation("cannot use `collapse` in a scroll context")
}

// collapseLeaf checks the collapse field's mapping: a keyword or a number, with doc values.
func collapseLeaf(c *Collapse, qc *dsl.Context, index string) (*mapper.Leaf, error) {
	l := qc.Leaf(c.Field)
	switch {
	case l == nil:
		return nil, eserr.SearchPhase(eserr.IllegalArgument("no mapping found for `%s` in order to collapse on", c.Field).With("index", index))
	case l.Type != "keyword" && !mapper.Numeric(l.Type):
		return nil, eserr.SearchPhase(eserr.IllegalArgument("collapse is not supported for the field [%s] of the type [%s]", c.Field, l.Type).With("index", index))
	case !l.DocValues:
		return nil, eserr.SearchPhase(eserr.IllegalArgument("cannot collapse on field `%s` without `doc_values`", c.Field).With("index", index))
	}
	return l, nil
}
