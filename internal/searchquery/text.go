package searchquery

import (
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// Matching strategies of a request.
const (
	// StrategyAll: every query word must match (with its typos, prefix, plural and
	// synonyms); a search that matches nothing drops words from the end.
	StrategyAll = "all"
	// StrategyLast: records matching the first word, ranked by how long a run of the
	// query's first words they match.
	StrategyLast = "last"
	// StrategyAny: records matching any word, ranked by how many they match.
	StrategyAny = "any"
)

// textPlan is what the text query of a request is built from.
type textPlan struct {
	words    queryWords
	units    []unit
	fields   []field
	ranks    int
	typos    typoRules
	strategy string
	radix    radix
}

// newTextPlan reads the query's words and sizes the bands of the ranking.
func newTextPlan(req Request, r Rules, s Schema, drop int, quantized []searchv1alpha1.RankingCriterion) textPlan {
	stops := relevance.StopsOf(r.Settings)
	p := textPlan{words: parseWords(req.Q, stops, drop), typos: typoRulesOf(r.Settings, req.TypoTolerance), strategy: strategyOf(req)}
	p.units = units(p.words.kept, synonymRules(r.Settings.Synonyms, stops))
	p.fields, p.ranks = searchFields(r, s, p.typos)
	p.radix = newRadix(relevance.Ranking(r.Settings), p.sizes(), quantized)
	return p
}

func strategyOf(req Request) string {
	if req.MatchingStrategy == "" {
		return StrategyAll
	}
	return req.MatchingStrategy
}

// sizes are the number of levels of each text criterion for this query.
func (p textPlan) sizes() map[searchv1alpha1.RankingCriterion]int64 {
	n := int64(len(p.words.kept))
	sizes := map[searchv1alpha1.RankingCriterion]int64{critExact: n + 1}
	if p.strategy != StrategyAll {
		sizes[critWords] = n + 1
	}
	if p.anyTypos() {
		sizes[critTypo] = 2*n + 1
	}
	if pairs := len(p.pairs()); pairs > 0 {
		sizes[critProximity] = proximitySize(pairs)
	}
	if p.ranks > 1 {
		sizes[critAttribute] = n*int64(p.ranks-1) + 1
	}
	return sizes
}

// anyTypos reports a query with a word that may match with typos (or an alternative
// ranked as typos): else the typo level only repeats the words level.
func (p textPlan) anyTypos() bool {
	for _, w := range p.words.kept {
		if p.typos.allowed(w) > 0 && p.typoField() {
			return true
		}
	}
	for _, u := range p.units {
		if slices.ContainsFunc(u.alts, func(a alt) bool { return a.typos > 0 }) {
			return true
		}
	}
	return false
}

func (p textPlan) typoField() bool {
	return p.fields == nil || slices.ContainsFunc(p.fields, func(f field) bool { return f.typos })
}

// query is the text query: the units by the matching strategy, then the clauses that
// only rank (proximity, and the quantized and rules' bands added by the caller).
func (p textPlan) query(ranked []any) any {
	if len(p.words.kept) == 0 {
		return matchAllRanked(ranked)
	}
	clauses := make([]any, len(p.units))
	for i, u := range p.units {
		clauses[i] = p.unitClause(u, p.wordsLevel(i))
	}
	var must, should []any
	switch p.strategy {
	case StrategyAny:
		must = []any{map[string]any{"bool": map[string]any{"should": clauses, "minimum_should_match": 1}}}
	case StrategyLast:
		must, should = clauses[:1], append(clauses[1:], p.longestRun(clauses)...)
	default:
		must = clauses
	}
	should = append(append(should, p.proximity()...), ranked...)
	return boolQ(map[string][]any{"must": must, "should": should})
}

// wordsLevel is the words level unit i's variants carry: its size with any (each word
// matched counts), the first unit's with last (the run clauses count the others), none
// with all (every word matches).
func (p textPlan) wordsLevel(i int) func(k int) int {
	switch {
	case p.strategy == StrategyAny, p.strategy == StrategyLast && i == 0:
		return func(k int) int { return k }
	}
	return func(int) int { return 0 }
}

// longestRun: with last, a clause per run of the first units (2 and more) whose boost is
// the last unit's size, so that the words level sums to the longest run matched.
func (p textPlan) longestRun(clauses []any) []any {
	var out []any
	for j := 1; j < len(clauses); j++ {
		run := boolQ(map[string][]any{"filter": slices.Clone(clauses[:j+1])})
		out = append(out, constant(run, int64(p.units[j].size())*p.radix.base(critWords)))
	}
	return out
}

// unitClause is the best variant of a unit: its words (each with its own variants) or
// one of its synonyms' alternatives.
func (p textPlan) unitClause(u unit, wordsLevel func(int) int) any {
	var variants []any
	if u.size() == 1 {
		variants = p.wordVariants(p.words.kept[u.first], wordsLevel(1))
	} else {
		words := make([]any, 0, u.size())
		for _, w := range p.words.kept[u.first : u.last+1] {
			words = append(words, disMax(p.wordVariants(w, wordsLevel(1))))
		}
		variants = []any{boolQ(map[string][]any{"must": words})}
	}
	for _, a := range u.alts {
		variants = append(variants, p.altVariants(a, u.size(), wordsLevel(u.size()))...)
	}
	return disMax(variants)
}
