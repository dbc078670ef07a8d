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

// fuzzy is how far a match query's terms may stray from the indexed ones.
type fuzzy struct {
	edits  int // 0 (exact), 1 or 2, or -1 for AUTO
	prefix int // leading characters that must match exactly (prefix_length)
}

// fuzzyOf reads fuzziness and prefix_length, and refuses the fuzzy options the engine
// cannot honour, as it refuses a slop: accepted and ignored, they would match otherwise
// than ES does.
func fuzzyOf(typ string, opts map[string]any) (fuzzy, error) {
	edits, err := fuzziness(opts)
	if err != nil {
		return fuzzy{}, err
	}
	f := fuzzy{edits: edits}
	if v, ok := opts["prefix_length"]; ok {
		n, err := num(v)
		if err != nil || n != float64(int(n)) {
			return fuzzy{}, eserr.Parsing("[%s] failed to parse prefix_length [%v]", typ, v)
		}
		if n < 0 {
			return fuzzy{}, eserr.IllegalArgument("prefixLength cannot be less than 0")
		}
		f.prefix = int(n)
	}
	if edits == 0 {
		return f, nil
	}
	// Bleve's automaton counts a transposition as one edit, as ES's default does.
	if t, ok := opts["fuzzy_transpositions"].(bool); ok && !t {
		return fuzzy{}, eserr.IllegalArgument("[%s] fuzzy_transpositions false is not supported by this engine", typ)
	}
	if _, ok := opts["max_expansions"]; ok {
		return fuzzy{}, eserr.IllegalArgument("[%s] max_expansions with fuzziness is not supported by this engine", typ)
	}
	return f, nil
}

// termFor is the query for one analyzed term: exact, or within f.edits edits with its
// first f.prefix characters unchanged; AUTO allows none below 3 characters, one up to 5
// and two above, as ES's AUTO:3,6.
func termFor(field, t string, f fuzzy) bq.Query {
	n := len([]rune(t))
	if f.edits == 0 || (f.edits == -1 && n < 3) {
		q := bleve.NewTermQuery(t)
		q.SetField(field)
		return q
	}
	q := bleve.NewFuzzyQuery(t)
	q.SetField(field)
	q.SetFuzziness(f.edits)
	if f.edits == -1 {
		q.SetFuzziness(1)
		if n > 5 {
			q.SetFuzziness(2)
		}
	}
	q.SetPrefix(prefixBytes(t, f.prefix))
	return q
}

// prefixBytes is the length in bytes of t's first n characters: bleve counts a fuzzy
// prefix in bytes, ES in characters.
func prefixBytes(t string, n int) int {
	for i := range t {
		if n == 0 {
			return i
		}
		n--
	}
	return len(t)
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
