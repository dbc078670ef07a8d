package dsl

import (
	"fmt"
	"math"

	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Corpus is what more_like_this reads of the searched indices: the documents it is asked
// to be like, and term statistics to weigh their words.
type Corpus interface {
	// Source returns the source of document id in index ("" for the searched indices),
	// realtime; found is false when there is none.
	Source(index, id string) (src map[string]any, found bool, err error)
	// DocFreq is how many documents of the searched indices hold term in field.
	DocFreq(field, term string) int
	// NumDocs is how many documents the searched indices hold.
	NumDocs() int
}

// mlt is a parsed more_like_this query (Elasticsearch's MoreLikeThisQueryBuilder).
type mlt struct {
	fields                     []string // nil: every text and keyword field
	likeTexts, unlikeTexts     []string
	likeItems, unlikeItems     []mltItem
	sel                        termSelection
	analyzer                   string
	minimumShouldMatch         any
	boostTerms                 float64
	include, failOnUnsupported bool
}

// mltItem is a document to be like: an indexed one (id) or an artificial one (doc).
type mltItem struct {
	index, id string
	doc       map[string]any
	fields    []string
}

// parseMoreLikeThis builds the query Elasticsearch's MoreLikeThisQuery rewrites to: the
// words of the like documents and texts that weigh most by tf-idf, as term queries in a
// bool query whose should clauses need minimum_should_match of them (default 30%), the
// like documents themselves left out unless include is true.
func parseMoreLikeThis(c *Context, body any) (bq.Query, error) {
	m, err := asObject("more_like_this", body)
	if err != nil {
		return nil, err
	}
	q, err := parseMLTOptions(m)
	if err != nil {
		return nil, err
	}
	dslQuery, err := q.build(c)
	if err != nil {
		return nil, err
	}
	if b, ok := m["boost"]; ok && dslQuery != nil {
		dslQuery["bool"].(map[string]any)["boost"] = b
	}
	if dslQuery == nil {
		return c.parse(map[string]any{"match_none": map[string]any{}})
	}
	return c.parse(dslQuery)
}

func parseMLTOptions(m map[string]any) (*mlt, error) {
	q := &mlt{sel: defaultSelection(), minimumShouldMatch: "30%", failOnUnsupported: true}
	for _, k := range sortedKeys(m) {
		if err := q.option(k, m[k]); err != nil {
			return nil, err
		}
	}
	if len(q.likeTexts) == 0 && len(q.likeItems) == 0 {
		return nil, eserr.Parsing("more_like_this requires 'like' to be specified")
	}
	if q.fields != nil && len(q.fields) == 0 {
		return nil, eserr.Parsing("more_like_this requires 'fields' to be non-empty")
	}
	return q, nil
}

func (q *mlt) option(k string, v any) error {
	var err error
	switch k {
	case "like":
		q.likeTexts, q.likeItems, err = parseLike(v)
	case "unlike":
		q.unlikeTexts, q.unlikeItems, err = parseLike(v)
	case "fields":
		q.fields, err = mltStrings(k, v)
	case "stop_words":
		var words []string
		words, err = mltStrings(k, v)
		q.sel.stopWords = setOf(words)
	case "analyzer":
		q.analyzer, err = mltText(k, v)
	case "minimum_should_match":
		q.minimumShouldMatch = v
	case "boost_terms":
		q.boostTerms, err = mltNumber(k, v)
	case "include":
		q.include, err = mltBool(k, v)
	case "fail_on_unsupported_field":
		q.failOnUnsupported, err = mltBool(k, v)
	case "boost":
		_, err = mltNumber(k, v)
	case "_name":
	default:
		return q.sel.option(k, v)
	}
	return err
}

// parseLike reads like or unlike: a text, an item, or an array of both.
func parseLike(v any) ([]string, []mltItem, error) {
	var texts []string
	var items []mltItem
	for _, el := range list(v) {
		switch x := el.(type) {
		case map[string]any:
			it, err := parseItem(x)
			if err != nil {
				return nil, nil, err
			}
			items = append(items, it)
		case []any, nil:
			return nil, nil, eserr.IllegalArgument("Content of 'like' parameter should either be a string or an object")
		default:
			texts = append(texts, fmt.Sprint(x))
		}
	}
	return texts, items, nil
}

func parseItem(m map[string]any) (mltItem, error) {
	var it mltItem
	for _, k := range sortedKeys(m) {
		v := m[k]
		switch k {
		case "_index":
			it.index = fmt.Sprint(v)
		case "_id":
			it.id = fmt.Sprint(v)
		case "doc":
			doc, ok := v.(map[string]any)
			if !ok {
				return it, itemError("field [doc] must be an object")
			}
			it.doc = doc
		case "fields":
			arr, ok := v.([]any)
			if !ok {
				return it, itemError("field [fields] must be an array")
			}
			for _, f := range arr {
				it.fields = append(it.fields, fmt.Sprint(f))
			}
		case "routing", "version", "version_type", "per_field_analyzer":
		default:
			return it, itemError(fmt.Sprintf("unknown field [%s]", k))
		}
	}
	switch {
	case it.id != "" && it.doc != nil:
		return it, itemError("either [id] or [doc] can be specified, but not both!")
	case it.id == "" && it.doc == nil:
		return it, itemError("neither [id] nor [doc] is specified!")
	}
	return it, nil
}

func itemError(why string) error {
	return eserr.New(400, "parse_exception", "failed to parse More Like This item. %s", why)
}

func mltStrings(k string, v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, eserr.Parsing("[mlt] query does not support [%s]", k)
	}
	out := make([]string, 0, len(arr))
	for _, s := range arr {
		out = append(out, fmt.Sprint(s))
	}
	return out, nil
}

func mltText(k string, v any) (string, error) {
	switch v.(type) {
	case map[string]any, []any, nil:
		return "", eserr.Parsing("[mlt] query does not support [%s]", k)
	}
	return fmt.Sprint(v), nil
}

func mltNumber(k string, v any) (float64, error) {
	f, err := num(v)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, eserr.Parsing("[mlt] failed to parse [%s]: not a number", k)
	}
	return f, nil
}

func mltInt(k string, v any) (int, error) {
	f, err := mltNumber(k, v)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, eserr.Parsing("[mlt] failed to parse [%s]: not an integer", k)
	}
	return int(f), nil
}

func mltBool(k string, v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case string:
		if x == "true" || x == "false" {
			return x == "true", nil
		}
	}
	return false, eserr.Parsing("[mlt] failed to parse [%s]: not a boolean", k)
}

func setOf(words []string) map[string]bool {
	out := make(map[string]bool, len(words))
	for _, w := range words {
		out[w] = true
	}
	return out
}

// build returns the query in the DSL (nil: nothing to match), or an error for a field
// more_like_this cannot read.
func (q *mlt) build(c *Context) (map[string]any, error) {
	fields, err := q.moreLikeFields(c)
	if err != nil || len(fields) == 0 {
		return nil, err
	}
	if q.fields == nil && (len(q.likeTexts) > 0 || len(q.unlikeTexts) > 0) {
		return nil, eserr.IllegalArgument("[more_like_this] query cannot infer the field to analyze the free text, " +
			"you should update the [index.query.default_field] index setting to a field that exists in the mapping or " +
			"set the [fields] option in the query.")
	}
	if c.Corpus == nil {
		return nil, eserr.IllegalArgument("[more_like_this] is not available here")
	}
	sel := q.sel
	sel.skip, err = q.unlikeTerms(c, fields)
	if err != nil {
		return nil, err
	}
	var should []any
	if len(q.likeItems) > 0 {
		freqs, err := q.itemTerms(c, q.likeItems, fields)
		if err != nil {
			return nil, err
		}
		should = appendTermQuery(should, q.selectPerField(c, freqs, sel), q.minimumShouldMatch)
	}
	if len(q.likeTexts) > 0 {
		freqs := q.textTerms(c, q.likeTexts, fields, sel)
		should = appendTermQuery(should, q.selectAcross(c, freqs, fields, sel), q.minimumShouldMatch)
	}
	if len(should) == 0 {
		return nil, nil
	}
	return q.exclude(should), nil
}

// moreLikeFields are the fields words are taken from: the fields option, or every text
// and keyword field.
func (q *mlt) moreLikeFields(c *Context) ([]string, error) {
	if q.fields == nil {
		var out []string
		for _, p := range c.Leaves() {
			if supportedMLT(c, p) {
				out = append(out, p)
			}
		}
		return out, nil
	}
	out := make([]string, 0, len(q.fields))
	for _, f := range q.fields {
		if l := c.Leaf(f); l != nil && !supportedMLT(c, f) {
			if q.failOnUnsupported {
				return nil, eserr.IllegalArgument("more_like_this only supports text/keyword fields: [%s]", f)
			}
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

func supportedMLT(c *Context, path string) bool {
	l := c.Leaf(path)
	return l != nil && (l.Mapped == "text" || l.Mapped == "keyword" || l.Mapped == "match_only_text")
}

// exclude joins the term queries and leaves out the like documents, unless include.
func (q *mlt) exclude(should []any) map[string]any {
	b := map[string]any{"should": should, "minimum_should_match": 1}
	var ids []any
	for _, it := range q.likeItems {
		if it.id != "" && !q.include {
			ids = append(ids, it.id)
		}
	}
	if len(ids) > 0 {
		b["must_not"] = []any{map[string]any{"ids": map[string]any{"values": ids}}}
	}
	return map[string]any{"bool": b}
}

// appendTermQuery adds a bool query of the selected terms, at least minimum_should_match
// of them (and at least one, as a Lucene query of should clauses alone needs).
func appendTermQuery(should []any, terms []selectedTerm, msm any) []any {
	if len(terms) == 0 {
		return should
	}
	clauses := make([]any, len(terms))
	for i, t := range terms {
		clauses[i] = map[string]any{"term": map[string]any{t.field: map[string]any{"value": t.word, "boost": t.boost}}}
	}
	n, err := minimumShouldMatch(msm, len(clauses))
	if err != nil || n < 1 {
		n = 1
	}
	return append(should, map[string]any{"bool": map[string]any{"should": clauses, "minimum_should_match": min(n, len(clauses))}})
}
