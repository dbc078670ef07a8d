package dsl

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// fuzziness reads a match query's fuzziness: 0 (exact), 1 or 2 edits, or -1 for AUTO
// (by term length, see termFor).
func fuzziness(opts map[string]any) (int, error) {
	f, ok := opts["fuzziness"]
	if !ok {
		return 0, nil
	}
	fs := strings.ToUpper(fmt.Sprint(f))
	if strings.HasPrefix(fs, "AUTO") {
		return -1, nil
	}
	n, err := strconv.Atoi(fs)
	if err != nil || n < 0 || n > 2 {
		return 0, eserr.Parsing("[match] failed to parse fuzziness [%s]", fs)
	}
	return n, nil
}

// termFor is the query for one analyzed term: exact, or within fuzz edits; AUTO allows
// none below 3 characters, one up to 5 and two above, as ES's AUTO:3,6.
func termFor(field, t string, fuzz int) bq.Query {
	if fuzz == 0 || (fuzz == -1 && len([]rune(t)) < 3) {
		q := bleve.NewTermQuery(t)
		q.SetField(field)
		return q
	}
	q := bleve.NewFuzzyQuery(t)
	q.SetField(field)
	if fuzz == -1 {
		q.SetFuzziness(1)
		if len([]rune(t)) > 5 {
			q.SetFuzziness(2)
		}
	} else {
		q.SetFuzziness(fuzz)
	}
	return q
}

// combineTerms joins the term queries of a match query by its operator and
// minimum_should_match.
func combineTerms(qs []bq.Query, opts map[string]any) (bq.Query, error) {
	op, _ := opts["operator"].(string)
	if strings.EqualFold(op, "and") {
		return bleve.NewConjunctionQuery(qs...), nil
	}
	if op != "" && !strings.EqualFold(op, "or") {
		return nil, eserr.IllegalArgument("No enum constant org.elasticsearch.index.query.Operator.%s", strings.ToUpper(op))
	}
	d := bleve.NewDisjunctionQuery(qs...)
	if msm, ok := opts["minimum_should_match"]; ok {
		k, err := minimumShouldMatch(msm, len(qs))
		if err != nil {
			return nil, err
		}
		d.SetMin(float64(max(k, 1)))
	}
	return d, nil
}
