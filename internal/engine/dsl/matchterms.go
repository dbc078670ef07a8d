package dsl

import (
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// termFor is the query for one analyzed term of a match query: the term, or with a
// fuzziness the terms within its edits (Lucene's FuzzyQuery, even at 0 edits, as ES
// builds it).
func termFor(field, t string, f *fuzzyOpts, text bool) bq.Query {
	if f == nil {
		return newTermQuery(field, t, text)
	}
	return newFuzzyQuery(field, t, text, *f)
}

// combineTerms joins the term queries of a match query by its operator and
// minimum_should_match, as ES's MatchQueryParser does: one term is its query alone.
func combineTerms(qs []bq.Query, opts map[string]any) (bq.Query, error) {
	op, _ := opts["operator"].(string)
	if op != "" && !strings.EqualFold(op, "and") && !strings.EqualFold(op, "or") {
		return nil, eserr.IllegalArgument("No enum constant org.elasticsearch.index.query.Operator.%s", strings.ToUpper(op))
	}
	if len(qs) == 1 {
		return qs[0], nil
	}
	if strings.EqualFold(op, "and") {
		return newBoolQuery(qs, nil, 0), nil
	}
	min := 1
	if msm, ok := opts["minimum_should_match"]; ok {
		k, err := minimumShouldMatch(msm, len(qs))
		if err != nil {
			return nil, err
		}
		min = max(k, 1)
	}
	if min > len(qs) {
		return bleve.NewMatchNoneQuery(), nil
	}
	return newBoolQuery(nil, qs, min), nil
}
