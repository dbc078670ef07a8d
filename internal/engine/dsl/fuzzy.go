package dsl

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// fuzziness is ES's Fuzziness: a number of edits, or AUTO's by the term's length.
type fuzziness struct {
	edits  int
	auto   bool
	lo, hi int // AUTO:lo,hi
}

// editsFor is Fuzziness.asDistance: with AUTO, none below lo characters, one below hi,
// two from hi on.
func (f fuzziness) editsFor(term string) int {
	if !f.auto {
		return f.edits
	}
	switch n := utf8.RuneCountInString(term); {
	case n < f.lo:
		return 0
	case n < f.hi:
		return 1
	}
	return 2
}

// parseFuzziness reads a fuzziness value as ES's Fuzziness.fromString does.
func parseFuzziness(v any) (fuzziness, error) {
	s := strings.ToUpper(strings.TrimSpace(fmt.Sprint(v)))
	if n, ok := v.(json.Number); ok {
		s = n.String()
	}
	switch {
	case s == "":
		return fuzziness{}, eserr.IllegalArgument("fuzziness cannot be null or empty.")
	case s == "AUTO":
		return fuzziness{auto: true, lo: 3, hi: 6}, nil
	case strings.HasPrefix(s, "AUTO:"):
		return parseCustomAuto(s)
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return fuzziness{}, eserr.IllegalArgument("fuzziness cannot be [%s].", fmt.Sprint(v))
	}
	if f != float64(int(f)) {
		return fuzziness{}, eserr.IllegalArgument("fuzziness needs to be one of 0.0, 1.0 or 2.0 but was %v", f)
	}
	if n := int(f); n < 0 || n > 2 {
		return fuzziness{}, eserr.IllegalArgument("Valid edit distances are [0, 1, 2] but was [%d]", n)
	}
	return fuzziness{edits: int(f)}, nil
}

func parseCustomAuto(s string) (fuzziness, error) {
	lo, hi, ok := strings.Cut(strings.TrimPrefix(s, "AUTO:"), ",")
	if !ok || strings.Contains(hi, ",") {
		return fuzziness{}, eserr.New(400, "parse_exception", "failed to find low and high distance values")
	}
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil {
		return fuzziness{}, eserr.New(400, "parse_exception", "failed to parse [%s] as a \"auto:int,int\"", s)
	}
	if l < 0 || h < 0 || l > h {
		return fuzziness{}, eserr.New(400, "parse_exception", "fuzziness wrongly configured [%s]. Must be 0 < lower value <= higher value.", s)
	}
	return fuzziness{auto: true, lo: l, hi: h}, nil
}

// rewriteMode is how a fuzzy query's expansions score (ES's rewrite methods).
type rewriteMode int

const (
	rewriteBlended   rewriteMode = iota // top terms, BM25 with their doc freqs blended (the default)
	rewriteScoring                      // top terms, BM25 each with its own doc freq
	rewriteBoostOnly                    // top terms, each the constant of its similarity
	rewriteConstant                     // every term, a constant score
)

// fuzzyOpts are the options of a fuzzy term: Lucene's FuzzyQuery.
type fuzzyOpts struct {
	fuzziness
	prefix         int // characters that must match exactly
	maxExpansions  int
	transpositions bool
	mode           rewriteMode
	size           int // terms kept; 0 keeps all
}

// fuzzyKeys are the options fuzzyOf reads, by their names in match queries.
type fuzzyKeys struct{ fuzziness, transpositions, rewrite string }

var (
	matchFuzzyKeys = fuzzyKeys{"fuzziness", "fuzzy_transpositions", "fuzzy_rewrite"}
	fuzzyQueryKeys = fuzzyKeys{"fuzziness", "transpositions", "rewrite"}
)

// fuzzyOf reads a query's fuzzy options; nil when it has no fuzziness.
func fuzzyOf(typ string, opts map[string]any, keys fuzzyKeys, def *fuzziness) (*fuzzyOpts, error) {
	raw, ok := opts[keys.fuzziness]
	if !ok && def == nil {
		return nil, nil
	}
	f := &fuzzyOpts{maxExpansions: 50, transpositions: true}
	if ok {
		var err error
		if f.fuzziness, err = parseFuzziness(raw); err != nil {
			return nil, err
		}
	} else {
		f.fuzziness = *def
	}
	if err := f.readInts(typ, opts); err != nil {
		return nil, err
	}
	if t, ok := opts[keys.transpositions]; ok {
		b, isBool := t.(bool)
		if !isBool {
			return nil, eserr.Parsing("[%s] failed to parse field [%s]", typ, keys.transpositions)
		}
		f.transpositions = b
	}
	rw, _ := opts[keys.rewrite].(string)
	return f, f.setRewrite(rw)
}

// readInts reads prefix_length and max_expansions.
func (f *fuzzyOpts) readInts(typ string, opts map[string]any) error {
	for _, k := range []struct {
		key string
		dst *int
	}{{"prefix_length", &f.prefix}, {"max_expansions", &f.maxExpansions}} {
		v, ok := opts[k.key]
		if !ok {
			continue
		}
		n, err := num(v)
		if err != nil || n != float64(int(n)) {
			return eserr.Parsing("[%s] failed to parse %s [%v]", typ, k.key, v)
		}
		*k.dst = int(n)
	}
	if f.prefix < 0 {
		return eserr.IllegalArgument("prefixLength cannot be less than 0")
	}
	if f.maxExpansions <= 0 {
		return eserr.IllegalArgument("[%s] requires maxExpansions to be positive.", typ)
	}
	return nil
}

// setRewrite reads a rewrite method as ES's QueryParsers.parseRewriteMethod does.
func (f *fuzzyOpts) setRewrite(rw string) error {
	f.mode, f.size = rewriteBlended, f.maxExpansions
	for _, p := range []struct {
		prefix string
		mode   rewriteMode
	}{{"top_terms_blended_freqs_", rewriteBlended}, {"top_terms_boost_", rewriteBoostOnly}, {"top_terms_", rewriteScoring}} {
		if n, ok := strings.CutPrefix(rw, p.prefix); ok {
			size, err := strconv.Atoi(n)
			if err != nil || size <= 0 {
				return eserr.IllegalArgument("Failed to parse rewrite_method [%s]", rw)
			}
			f.mode, f.size = p.mode, size
			return nil
		}
	}
	switch rw {
	case "":
	case "constant_score", "constant_score_boolean", "constant_score_blended":
		f.mode, f.size = rewriteConstant, 0
	case "scoring_boolean":
		return eserr.IllegalArgument("rewrite method [scoring_boolean] is not supported by this engine")
	default:
		return eserr.IllegalArgument("Failed to parse rewrite_method [%s]", rw)
	}
	return nil
}

// parseFuzzy is the fuzzy query: an unanalysed value within edits of the terms of a text
// or keyword field.
func parseFuzzy(c *Context, body any) (bq.Query, error) {
	field, val, opts, err := fieldBody("fuzzy", body)
	if err != nil {
		return nil, err
	}
	if val == nil {
		if err := checkKeys("fuzzy", opts, "value", "fuzziness", "prefix_length", "max_expansions", "transpositions", "rewrite"); err != nil {
			return nil, err
		}
		val = opts["value"]
	}
	if val == nil {
		return nil, eserr.Parsing("[fuzzy] query doesn't support [value] of null")
	}
	f, err := fuzzyOf("fuzzy", opts, fuzzyQueryKeys, &fuzziness{auto: true, lo: 3, hi: 6})
	if err != nil {
		return nil, err
	}
	leaf := c.Leaf(field)
	if leaf == nil {
		return bleve.NewMatchNoneQuery(), nil
	}
	if leaf.Type != "text" && leaf.Type != "keyword" {
		return nil, c.shardErr("Can only use fuzzy queries on keyword and text fields - not on [%s] which is of type [%s]", field, leaf.Type)
	}
	return applyBoost(newFuzzyQuery(field, fmt.Sprint(val), leaf.Type == "text", *f), opts)
}
