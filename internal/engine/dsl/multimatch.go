package dsl

import (
	"path"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// fieldSpec is one multi_match field with its ^boost.
type fieldSpec struct {
	name  string
	boost float64
}

func (c *Context) expandFields(raw []any) ([]fieldSpec, error) {
	var out []fieldSpec
	for _, r := range raw {
		s, ok := r.(string)
		if !ok {
			return nil, eserr.Parsing("[multi_match] fields must be strings")
		}
		boost := 1.0
		if name, b, ok := strings.Cut(s, "^"); ok {
			f, err := strconv.ParseFloat(b, 64)
			if err != nil {
				return nil, eserr.Parsing("[multi_match] invalid boost in field [%s]", s)
			}
			s, boost = name, f
		}
		if strings.Contains(s, "*") {
			for _, p := range c.Leaves() {
				if ok, _ := path.Match(s, p); ok {
					if l := c.Leaf(p); l != nil && (l.Type == "text" || l.Type == "keyword") {
						out = append(out, fieldSpec{p, boost})
					}
				}
			}
			continue
		}
		out = append(out, fieldSpec{s, boost})
	}
	return out, nil
}

// multiMatchTypes are the multi_match types: the query each field gets, and the default
// tie breaker of the dis_max that joins the fields (ES's MultiMatchQueryBuilder.Type).
// cross_fields, which blends term statistics across fields, is not among them.
var multiMatchTypes = map[string]struct {
	field func(c *Context, field, text string, opts map[string]any) (bq.Query, error)
	tie   float32
}{
	"best_fields":   {(*Context).matchField, 0},
	"most_fields":   {(*Context).matchField, 1},
	"phrase":        {(*Context).exactPhrase, 0},
	"phrase_prefix": {(*Context).phrasePrefix, 0},
	"bool_prefix":   {(*Context).boolPrefix, 0},
}

// multiMatchOpts are the options multi_match passes to each field's query.
var multiMatchOpts = []string{"operator", "minimum_should_match", "analyzer", "fuzziness", "prefix_length", "fuzzy_transpositions", "fuzzy_rewrite", "zero_terms_query", "slop", "max_expansions"}

func parseMultiMatch(c *Context, body any) (bq.Query, error) {
	m, err := asObject("multi_match", body)
	if err != nil {
		return nil, err
	}
	if err := checkMultiMatch(m); err != nil {
		return nil, err
	}
	text, err := scalarText(m["query"])
	if err != nil {
		return nil, eserr.Parsing("[multi_match] requires query value")
	}
	rawFields := list(m["fields"])
	if len(rawFields) == 0 {
		rawFields = []any{"*"}
	}
	fields, err := c.expandFields(rawFields)
	if err != nil {
		return nil, err
	}
	typ, _ := m["type"].(string)
	if typ == "" {
		typ = "best_fields"
	}
	opts := map[string]any{"lenient": true}
	for _, k := range multiMatchOpts {
		if v, ok := m[k]; ok {
			opts[k] = v
		}
	}
	if _, ok := m["lenient"]; !ok && len(list(m["fields"])) > 0 {
		opts["lenient"] = false
	}
	q, err := c.perField(fields, typ, text, opts, m)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, m)
}

// checkMultiMatch refuses unknown keys, and the options ES refuses for a type.
func checkMultiMatch(m map[string]any) error {
	typ, _ := m["type"].(string)
	if _, cutoff := m["cutoff_frequency"]; cutoff && typ == "bool_prefix" {
		return eserr.Parsing("[cutoff_frequency] not allowed for type [bool_prefix]")
	}
	if err := checkKeys("multi_match", m, append([]string{"query", "fields", "type", "tie_breaker", "lenient", "auto_generate_synonyms_phrase_query"}, multiMatchOpts...)...); err != nil {
		return err
	}
	if typ == "cross_fields" {
		return eserr.IllegalArgument("[multi_match] type [cross_fields] is not supported by this engine")
	}
	if typ != "" && multiMatchTypes[typ].field == nil {
		return eserr.Parsing("[multi_match] query does not allow type [%s]", typ)
	}
	if _, fuzzy := m["fuzziness"]; fuzzy && (typ == "phrase" || typ == "phrase_prefix") {
		return eserr.Parsing("Fuzziness not allowed for type [%s]", typ)
	}
	if _, slop := m["slop"]; slop && typ == "bool_prefix" {
		return eserr.Parsing("[slop] not allowed for type [bool_prefix]")
	}
	return nil
}

// perField is the dis_max of each field's query, boosted by the field's ^boost (a dis_max
// of one query scores as that query).
func (c *Context) perField(fields []fieldSpec, typ, text string, opts, m map[string]any) (bq.Query, error) {
	t := multiMatchTypes[typ]
	tie := t.tie
	if v, ok := m["tie_breaker"]; ok {
		f, err := num(v)
		if err != nil {
			return nil, eserr.Parsing("[multi_match] tie_breaker must be a number")
		}
		tie = float32(f)
	}
	var qs []bq.Query
	for _, f := range fields {
		q, err := t.field(c, f.name, text, opts)
		if err != nil {
			return nil, err
		}
		if bb, ok := q.(bq.BoostableQuery); ok && f.boost != 1 {
			bb.SetBoost(f.boost)
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	return newDisMax(qs, tie), nil
}
