// Package dsl translates Elasticsearch's query DSL into bleve queries, resolving field
// types from the mapping so term, range and match behave per field type as in ES.
package dsl

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/vectors"
)

// Context gives the parser what it needs to know about the searched indices.
type Context struct {
	// Leaf returns the mapped field at a dotted path, or nil if unmapped.
	Leaf func(path string) *mapper.Leaf
	// Leaves lists every mapped leaf path (for wildcards and default fields).
	Leaves func() []string
	// Analyze runs an ES analyzer (by ES name) over text.
	Analyze func(esAnalyzer, text string) []string
	// AnalyzePositions runs an ES analyzer over text and groups its terms by position,
	// from the first token's: a position the analyzer left empty (a removed stop word)
	// holds none, synonyms share one.
	AnalyzePositions func(esAnalyzer, text string) [][]string
	// PrefixTerms lists indexed terms of field starting with prefix (match_phrase_prefix).
	PrefixTerms func(field, prefix string, max int) []string
	// Index is the ES index name used in error metadata.
	Index string
	// MaxTerms is index.max_terms_count and MaxIDs index.max_result_window (0: no limit).
	MaxTerms int
	MaxIDs   int
	// Named are the queries given a _name, in the order parsed (see Named).
	Named []Named
	// Corpus reads documents and term statistics for more_like_this (nil: refused).
	Corpus Corpus
	// Vector returns a dense_vector field's options: found is false for an unmapped
	// field, isVector false for a field of another type (nil: no vector fields).
	Vector func(path string) (opts vectors.Options, found, isVector bool)
	// Size is the search's size, the knn query's default k (0: 10).
	Size int
}

// Parse decodes a raw query object.
func Parse(raw json.RawMessage, ctx *Context) (bq.Query, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, eserr.Parsing("failed to parse query: %s", err.Error())
	}
	return ctx.parse(v)
}

// ParseValue parses an already decoded (UseNumber) query value.
func ParseValue(v any, ctx *Context) (bq.Query, error) { return ctx.parse(v) }

func (c *Context) parse(v any) (bq.Query, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, eserr.Parsing("[_na] query malformed, must start with start_object")
	}
	if len(obj) != 1 {
		if len(obj) == 0 {
			return bleve.NewMatchAllQuery(), nil
		}
		keys := sortedKeys(obj)
		return nil, eserr.Parsing("[%s] malformed query, expected [END_OBJECT] but found [FIELD_NAME]", keys[0])
	}
	for typ, body := range obj {
		fn, ok := parsers[typ]
		if !ok {
			return nil, eserr.Parsing("unknown query [%s]", typ).With("line", 1).With("col", 1)
		}
		q, err := fn(c, body)
		if name, named := nameOf(body); named && err == nil {
			c.Named = append(c.Named, Named{Name: name, Query: q})
		}
		return q, err
	}
	return nil, nil
}

type parser func(c *Context, body any) (bq.Query, error)

var parsers map[string]parser

func init() {
	parsers = map[string]parser{
		"match_all":           parseMatchAll,
		"match_none":          func(*Context, any) (bq.Query, error) { return bleve.NewMatchNoneQuery(), nil },
		"bool":                parseBool,
		"match":               parseMatch,
		"match_phrase":        parseMatchPhrase,
		"match_phrase_prefix": parseMatchPhrasePrefix,
		"multi_match":         parseMultiMatch,
		"term":                parseTerm,
		"terms":               parseTerms,
		"range":               parseRange,
		"exists":              parseExists,
		"ids":                 parseIDs,
		"prefix":              parsePrefix,
		"constant_score":      parseConstantScore,
		"dis_max":             parseDisMax,
		"fuzzy":               parseFuzzy,
		"match_bool_prefix":   parseMatchBoolPrefix,
		"function_score":      parseFunctionScore,
		"more_like_this":      parseMoreLikeThis,
		"knn":                 parseKnn,
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func asObject(typ string, body any) (map[string]any, error) {
	m, ok := body.(map[string]any)
	if !ok {
		return nil, eserr.Parsing("[%s] query malformed, no start_object after query name", typ)
	}
	return m, nil
}

// fieldBody splits {"field": value-or-object} query bodies (term, match, prefix, range...).
func fieldBody(typ string, body any) (string, any, map[string]any, error) {
	m, err := asObject(typ, body)
	if err != nil {
		return "", nil, nil, err
	}
	var field string
	var val any
	n := 0
	opts := map[string]any{}
	for k, v := range m {
		switch k {
		case "boost", "_name":
			opts[k] = v
			continue
		}
		field, val = k, v
		n++
	}
	if n != 1 {
		if n == 0 {
			return "", nil, nil, eserr.IllegalArgument("[%s] query doesn't support multiple fields, found none", typ)
		}
		return "", nil, nil, eserr.Parsing("[%s] query doesn't support multiple fields, found [%s] and [%s]", typ, sortedKeys(m)[0], sortedKeys(m)[1])
	}
	if inner, ok := val.(map[string]any); ok {
		for k, v := range opts {
			if _, set := inner[k]; !set {
				inner[k] = v
			}
		}
		return field, nil, inner, nil
	}
	return field, val, opts, nil
}

func boostOf(opts map[string]any) (float64, bool, error) {
	b, ok := opts["boost"]
	if !ok {
		return 1, false, nil
	}
	f, err := num(b)
	if err != nil {
		return 0, false, eserr.Parsing("[boost] must be a number")
	}
	return f, true, nil
}

func num(v any) (float64, error) { return mapper.ToNumber(v, "double") }

func applyBoost(q bq.Query, opts map[string]any) (bq.Query, error) {
	b, ok, err := boostOf(opts)
	if err != nil || !ok {
		return q, err
	}
	if bb, can := q.(bq.BoostableQuery); can {
		bb.SetBoost(b)
	}
	return q, nil
}

// checkKeys rejects unknown options like ES's "[match] query does not support [foo]".
func checkKeys(typ string, opts map[string]any, allowed ...string) error {
	set := map[string]bool{"boost": true, "_name": true}
	for _, a := range allowed {
		set[a] = true
	}
	for _, k := range sortedKeys(opts) {
		if !set[k] {
			return eserr.Parsing("[%s] query does not support [%s]", typ, k)
		}
	}
	return nil
}

func parseMatchAll(c *Context, body any) (bq.Query, error) {
	m, err := asObject("match_all", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("match_all", m); err != nil {
		return nil, err
	}
	return applyBoost(bleve.NewMatchAllQuery(), m)
}

func list(v any) []any {
	if arr, ok := v.([]any); ok {
		return arr
	}
	if v == nil {
		return nil
	}
	return []any{v}
}
