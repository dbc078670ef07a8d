package dsl

import (
	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"
)

// boolPrefix is ES's BOOLEAN_PREFIX match of one field: the analyzed terms as a match
// query builds them (fuzzy with a fuzziness), but the last, which is a prefix and scores
// a constant; a keyword field's whole value is the prefix.
func (c *Context) boolPrefix(field, text string, opts map[string]any) (bq.Query, error) {
	fuzz, err := fuzzyOf("match_bool_prefix", opts, matchFuzzyKeys, nil)
	if err != nil {
		return nil, err
	}
	leaf := c.Leaf(field)
	switch {
	case leaf == nil:
		return bleve.NewMatchNoneQuery(), nil
	case leaf.Type == "keyword":
		return prefixQuery(field, text), nil
	case leaf.Type != "text":
		return c.matchValue(leaf, text, fuzz, opts)
	}
	terms, none := c.analyzed(leaf, text, map[string]any{"analyzer": opts["analyzer"]})
	if none != nil {
		return none, nil
	}
	qs := make([]bq.Query, 0, len(terms))
	for _, t := range terms[:len(terms)-1] {
		qs = append(qs, termFor(field, t, fuzz, true))
	}
	qs = append(qs, prefixQuery(field, terms[len(terms)-1]))
	return combineTerms(qs, opts)
}

func prefixQuery(field, prefix string) bq.Query {
	q := bleve.NewPrefixQuery(prefix)
	q.SetField(field)
	return q
}
