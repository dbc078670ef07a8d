package dsl

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/scoring"
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

// fieldText is a query of some text on one field ({"match":{"field":"text"}} or the
// object form {"match":{"field":{"query":"text",...}}}): the options it takes, and how it
// builds the field's query.
type fieldText struct {
	typ   string
	keys  []string
	build func(c *Context, field, text string, opts map[string]any) (bq.Query, error)
}

func (f fieldText) parse(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody(f.typ, body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys(f.typ, opts, append([]string{"query"}, f.keys...)...); err != nil {
			return nil, err
		}
		val = opts["query"]
	}
	text, err := scalarText(val)
	if err != nil {
		return nil, err
	}
	q, err := f.build(c, field, text, opts)
	if err != nil {
		return nil, err
	}
	return applyBoost(q, opts)
}

var (
	// match takes operator, minimum_should_match, analyzer and the fuzzy options.
	parseMatch = fieldText{"match", []string{"operator", "minimum_should_match", "analyzer", "fuzziness", "prefix_length", "max_expansions", "lenient", "zero_terms_query", "auto_generate_synonyms_phrase_query", "fuzzy_transpositions", "fuzzy_rewrite"},
		(*Context).matchField}.parse
	parseMatchPhrase = fieldText{"match_phrase", []string{"analyzer", "slop", "zero_terms_query"},
		(*Context).exactPhrase}.parse
	parseMatchPhrasePrefix = fieldText{"match_phrase_prefix", []string{"analyzer", "slop", "max_expansions", "zero_terms_query"},
		(*Context).phrasePrefix}.parse
	// match_bool_prefix: a match query whose last term is a prefix.
	parseMatchBoolPrefix = fieldText{"match_bool_prefix", []string{"analyzer", "operator", "minimum_should_match", "fuzziness", "prefix_length", "max_expansions", "fuzzy_transpositions", "fuzzy_rewrite"},
		(*Context).boolPrefix}.parse
)

// matchField builds the query for one field: analyzed terms for text fields, the whole
// value for keyword, numeric, date and boolean fields (as ES's match does).
func (c *Context) matchField(field, text string, opts map[string]any) (bq.Query, error) {
	fuzz, err := fuzzyOf("match", opts, matchFuzzyKeys, nil)
	if err != nil {
		return nil, err
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" {
		return c.matchValue(leaf, text, fuzz, opts)
	}
	terms, none := c.analyzed(leaf, text, opts)
	if none != nil {
		return none, nil
	}
	qs := make([]bq.Query, 0, len(terms))
	for _, t := range terms {
		qs = append(qs, termFor(field, t, fuzz, true))
	}
	return combineTerms(qs, opts)
}

// analyzed are the terms of text in a text field, or the query zero_terms_query asks for
// when there are none.
func (c *Context) analyzed(leaf *mapper.Leaf, text string, opts map[string]any) ([]string, bq.Query) {
	analyzer := leaf.SearchAnalyzer
	if a, ok := opts["analyzer"].(string); ok {
		analyzer = a
	}
	terms := c.Analyze(analyzer, text)
	if len(terms) > 0 {
		return terms, nil
	}
	if z, _ := opts["zero_terms_query"].(string); z == "all" {
		return nil, bleve.NewMatchAllQuery()
	}
	return nil, bleve.NewMatchNoneQuery()
}

// matchValue matches a non-text field's whole value: a keyword within the fuzziness, or
// the exact value. ES refuses a fuzziness on other types; lenient makes any refusal
// match nothing.
func (c *Context) matchValue(leaf *mapper.Leaf, text string, fuzz *fuzzyOpts, opts map[string]any) (bq.Query, error) {
	var q bq.Query
	var err error
	switch {
	case fuzz != nil && leaf.Type == "keyword":
		q = newFuzzyQuery(leaf.Path, text, false, *fuzz)
	case fuzz != nil:
		err = c.shardErr("Can only use fuzzy queries on keyword and text fields - not on [%s] which is of type [%s]", leaf.Path, leaf.Type)
	default:
		q, err = c.exactValue(leaf, text)
	}
	if lenient, _ := opts["lenient"].(bool); err != nil && lenient {
		return bleve.NewMatchNoneQuery(), nil
	}
	return q, err
}

func (c *Context) exactPhrase(field, text string, opts map[string]any) (bq.Query, error) {
	return c.phrase(field, text, opts, false)
}

func (c *Context) phrasePrefix(field, text string, opts map[string]any) (bq.Query, error) {
	return c.phrase(field, text, opts, true)
}

// phrase builds a positional phrase, its terms at the positions the analyzer gives them
// (a removed stop word leaves a gap, synonyms share a position); with prefix the last
// position's term is expanded against the term dictionary (up to max_expansions,
// default 50), like ES's match_phrase_prefix. slop lets the terms stand that many
// position moves apart.
func (c *Context) phrase(field, text string, opts map[string]any, prefix bool) (bq.Query, error) {
	slop, err := slopOf(opts)
	if err != nil {
		return nil, err
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" {
		if prefix && leaf.Type == "keyword" {
			return prefixQuery(field, text), nil
		}
		return c.exactValue(leaf, text)
	}
	analyzer := leaf.SearchAnalyzer
	if a, ok := opts["analyzer"].(string); ok {
		analyzer = a
	}
	positions := phrasePositions(c.AnalyzePositions(analyzer, text))
	if len(positions) == 0 {
		return bleve.NewMatchNoneQuery(), nil
	}
	if prefix {
		last := &positions[len(positions)-1]
		if last.Terms, err = c.expansions(field, last.Terms[0], opts); err != nil || len(last.Terms) == 0 {
			return bleve.NewMatchNoneQuery(), err
		}
	}
	if len(positions) == 1 {
		// Lucene rewrites a phrase of one position to its term, or a bool of its terms.
		qs := make([]bq.Query, 0, len(positions[0].Terms))
		for _, t := range positions[0].Terms {
			qs = append(qs, newTermQuery(field, t, true))
		}
		return combineTerms(qs, nil)
	}
	return newPhraseQuery(field, positions, slop), nil
}

// expansions are up to max_expansions (default 50) terms of field starting with prefix.
func (c *Context) expansions(field, prefix string, opts map[string]any) ([]string, error) {
	max := 50
	if m, ok := opts["max_expansions"]; ok {
		f, err := num(m)
		if err != nil {
			return nil, eserr.Parsing("[match_phrase_prefix] max_expansions must be a number")
		}
		max = int(f)
	}
	return c.PrefixTerms(field, prefix, max), nil
}

// phrasePositions are the non-empty positions of an analyzed phrase, each with its
// offset from the first.
func phrasePositions(byPosition [][]string) []scoring.PhrasePosition {
	var out []scoring.PhrasePosition
	for i, terms := range byPosition {
		if len(terms) > 0 {
			out = append(out, scoring.PhrasePosition{Offset: i, Terms: terms})
		}
	}
	return out
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
		return newTermQuery(leaf.Path, map[bool]string{true: "T", false: "F"}[s == "true"], false), nil
	}
	return newTermQuery(leaf.Path, fmt.Sprint(v), false), nil
}

func (c *Context) shardErr(format string, args ...any) error {
	return eserr.New(400, "query_shard_exception", format, args...).With("index", c.Index)
}

func pathMatch(pattern, name string) (bool, error) { return path.Match(pattern, name) }

// slopOf is a phrase's slop: ES's default 0, a whole number (a fraction is cut, a
// numeric string taken, as ES's parser coerces them), never negative.
func slopOf(opts map[string]any) (int, error) {
	v, ok := opts["slop"]
	if !ok {
		return 0, nil
	}
	f, err := mapper.ToNumber(v, "integer")
	if err != nil || v == nil || f > math.MaxInt32 {
		return 0, eserr.Parsing("[slop] must be a whole number")
	}
	if f < 0 {
		return 0, eserr.IllegalArgument("No negative slop allowed.")
	}
	return int(f), nil
}
