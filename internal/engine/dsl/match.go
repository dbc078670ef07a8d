package dsl

import (
	"encoding/json"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

func minimumShouldMatch(v any, n int) (int, error) {
	s := strings.TrimSpace(fmt.Sprint(v))
	if strings.HasSuffix(s, "%") {
		p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil {
			return 0, eserr.IllegalArgument("invalid minimum_should_match [%s]", s)
		}
		k := int(math.Floor(float64(n) * math.Abs(p) / 100))
		if p < 0 {
			return n - k, nil
		}
		return k, nil
	}
	k, err := strconv.Atoi(s)
	if err != nil {
		return 0, eserr.IllegalArgument("invalid minimum_should_match [%s]", s)
	}
	if k < 0 {
		k = n + k
		if k < 0 {
			k = 0
		}
	}
	return k, nil
}

func scalarText(v any) (string, error) {
	switch v.(type) {
	case map[string]any, []any, nil:
		return "", eserr.Parsing("[match] unknown token [START_OBJECT] after [query]")
	}
	return fmt.Sprint(v), nil
}

// parseMatch handles {"match":{"field":"text"}} and the object form with operator,
// minimum_should_match, analyzer, fuzziness and boost.
func parseMatch(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("match", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("match", opts, "query", "operator", "minimum_should_match", "analyzer", "fuzziness", "prefix_length", "max_expansions", "lenient", "zero_terms_query", "auto_generate_synonyms_phrase_query", "fuzzy_transpositions"); err != nil {
			return nil, err
		}
		val = opts["query"]
	}
	text, err := scalarText(val)
	if err != nil {
		return nil, err
	}
	q, err := c.matchField(field, text, opts)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

// matchField builds the query for one field: analyzed terms for text fields, an exact
// value for keyword, numeric, date and boolean fields (as ES's match does).
func (c *Context) matchField(field, text string, opts map[string]any) (bq.Query, error) {
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" {
		q, err := c.exactValue(leaf, text)
		if err != nil {
			if lenient, _ := opts["lenient"].(bool); lenient {
				return bleve.NewMatchNoneQuery(), nil
			}
		}
		return q, err
	}
	analyzer := leaf.SearchAnalyzer
	if a, ok := opts["analyzer"].(string); ok {
		analyzer = a
	}
	terms := c.Analyze(analyzer, text)
	if len(terms) == 0 {
		if z, _ := opts["zero_terms_query"].(string); z == "all" {
			return bleve.NewMatchAllQuery(), nil
		}
		return bleve.NewMatchNoneQuery(), nil
	}
	fuzz, err := fuzzyOf("match", opts)
	if err != nil {
		return nil, err
	}
	qs := make([]bq.Query, 0, len(terms))
	for _, t := range terms {
		qs = append(qs, termFor(field, t, fuzz))
	}
	return combineTerms(qs, opts)
}

func parseMatchPhrase(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("match_phrase", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("match_phrase", opts, "query", "analyzer", "slop", "zero_terms_query"); err != nil {
			return nil, err
		}
		val = opts["query"]
	}
	text, err := scalarText(val)
	if err != nil {
		return nil, err
	}
	q, err := c.phrase(field, text, opts, false)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

func parseMatchPhrasePrefix(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("match_phrase_prefix", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("match_phrase_prefix", opts, "query", "analyzer", "slop", "max_expansions", "zero_terms_query"); err != nil {
			return nil, err
		}
		val = opts["query"]
	}
	text, err := scalarText(val)
	if err != nil {
		return nil, err
	}
	q, err := c.phrase(field, text, opts, true)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

// phrase builds a positional phrase; with prefix the last term is expanded against the
// term dictionary (up to max_expansions, default 50), like ES's match_phrase_prefix.
func (c *Context) phrase(field, text string, opts map[string]any, prefix bool) (bq.Query, error) {
	if err := noSlop(opts); err != nil {
		return nil, err
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" {
		if prefix && leaf.Type == "keyword" {
			q := bleve.NewPrefixQuery(text)
			q.SetField(field)
			return q, nil
		}
		return c.exactValue(leaf, text)
	}
	analyzer := leaf.SearchAnalyzer
	if a, ok := opts["analyzer"].(string); ok {
		analyzer = a
	}
	terms := c.Analyze(analyzer, text)
	if len(terms) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	if !prefix {
		if len(terms) == 1 {
			return termFor(field, terms[0], fuzzy{}), nil
		}
		return bleve.NewPhraseQuery(terms, field), nil
	}
	max := 50
	if m, ok := opts["max_expansions"]; ok {
		f, err := num(m)
		if err != nil {
			return nil, eserr.Parsing("[match_phrase_prefix] max_expansions must be a number")
		}
		max = int(f)
	}
	last := terms[len(terms)-1]
	expanded := c.PrefixTerms(field, last, max)
	if len(expanded) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	if len(terms) == 1 {
		qs := make([]bq.Query, 0, len(expanded))
		for _, t := range expanded {
			qs = append(qs, termFor(field, t, fuzzy{}))
		}
		return bleve.NewDisjunctionQuery(qs...), nil
	}
	multi := make([][]string, 0, len(terms))
	for _, t := range terms[:len(terms)-1] {
		multi = append(multi, []string{t})
	}
	multi = append(multi, expanded)
	return bq.NewMultiPhraseQuery(multi, field), nil
}

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

func parseMultiMatch(c *Context, body any) (bq.Query, error) {
	m, err := asObject("multi_match", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("multi_match", m, "query", "fields", "type", "operator", "minimum_should_match", "analyzer", "fuzziness", "tie_breaker", "lenient", "zero_terms_query", "slop", "max_expansions", "prefix_length", "auto_generate_synonyms_phrase_query", "fuzzy_transpositions"); err != nil {
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
	opts := map[string]any{"lenient": true}
	for _, k := range []string{"operator", "minimum_should_match", "analyzer", "fuzziness", "prefix_length", "fuzzy_transpositions", "zero_terms_query", "slop", "max_expansions"} {
		if v, ok := m[k]; ok {
			opts[k] = v
		}
	}
	if _, ok := m["lenient"]; !ok && len(list(m["fields"])) > 0 {
		opts["lenient"] = false
	}
	var qs []bq.Query
	for _, f := range fields {
		var q bq.Query
		switch typ {
		case "", "best_fields", "most_fields", "cross_fields", "bool_prefix":
			q, err = c.matchField(f.name, text, opts)
		case "phrase":
			q, err = c.phrase(f.name, text, opts, false)
		case "phrase_prefix":
			q, err = c.phrase(f.name, text, opts, true)
		default:
			return nil, eserr.Parsing("[multi_match] query does not allow type [%s]", typ)
		}
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
	return applyBoost(bleve.NewDisjunctionQuery(qs...), m)
}

// exactValue matches one value against a non-text field.
func (c *Context) exactValue(leaf *mapper.Leaf, v any) (bq.Query, error) {
	switch {
	case mapper.Unqueryable(leaf.Type):
		return nil, c.shardErr("Field [%s] of type [%s] does not support exact queries in this engine", leaf.Path, leaf.Type)
	case mapper.Numeric(leaf.Type):
		f, err := mapper.ToNumber(v, leaf.Type)
		if err != nil {
			return nil, c.shardErr("failed to create query: %s", err.Error())
		}
		incl := true
		q := NewNumericRange(&f, &f, &incl, &incl)
		q.SetField(leaf.Path)
		return q, nil
	case leaf.Type == "date":
		t, err := mapper.ParseDate(dateInput(v), leaf.Format)
		if err != nil {
			return nil, c.shardErr("failed to create query: %s", err.Error())
		}
		incl := true
		q := NewDateRange(t, t, &incl, &incl)
		q.SetField(leaf.Path)
		return q, nil
	case leaf.Type == "boolean":
		s := fmt.Sprint(v)
		if s != "true" && s != "false" {
			return nil, c.shardErr("failed to create query: Can't parse boolean value [%s], expected [true] or [false]", s)
		}
		q := bleve.NewBoolFieldQuery(s == "true")
		q.SetField(leaf.Path)
		return q, nil
	}
	q := bleve.NewTermQuery(fmt.Sprint(v))
	q.SetField(leaf.Path)
	return q, nil
}

func (c *Context) shardErr(format string, args ...any) error {
	return eserr.New(400, "query_shard_exception", format, args...).With("index", c.Index)
}

func pathMatch(pattern, name string) (bool, error) { return path.Match(pattern, name) }

// noSlop refuses a phrase's slop other than ES's default 0: bleve's phrase searcher
// matches exact phrases only, and a slop ignored would match less than ES does.
func noSlop(opts map[string]any) error {
	v, ok := opts["slop"]
	if !ok {
		return nil
	}
	if n, ok := v.(json.Number); ok && (n.String() == "0" || n.String() == "0.0") {
		return nil
	}
	if s, ok := v.(string); ok && s == "0" {
		return nil
	}
	return eserr.IllegalArgument("[slop] other than 0 is not supported by this engine")
}
