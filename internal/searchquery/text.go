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
	// StrategyFrequency (the default): records matching any word, ranked by how telling
	// the words they match are (wordstats.go): every word first, then the records
	// missing the words most records hold; a word no record holds is ignored.
	StrategyFrequency = "frequency"
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
	// weights are each kept word's level in the words criterion (frequency), 0 for a
	// word the query ignores; relaxed marks the units matched by their relaxed clause.
	weights []int
	relaxed []bool
	// named: each unit's clause carries its name (explain's missing words).
	named bool
	// neg are the language's negation words (negation.go).
	neg relevance.Negations
	// tail breaks the ties of the last criterion by BM25 (tiebreak.go); nil: none.
	tail *tieBreak
	// semantic is the request's search by meaning (hybrid.go); nil: words only.
	semantic *semanticPlan
}

// newTextPlan reads the query's words and sizes the bands of the ranking.
func newTextPlan(req Request, r Access, s Schema, drop int, quantized []searchv1alpha1.RankingCriterion) textPlan {
	return newWeighedPlan(req, r, s, drop, quantized, WordStats{}, false)
}

// newWeighedPlan is newTextPlan with the index's word frequencies, and with tail when
// nothing ranks after the score.
func newWeighedPlan(req Request, r Access, s Schema, drop int, quantized []searchv1alpha1.RankingCriterion, stats WordStats, tail bool) textPlan {
	stops := relevance.StopsOf(r.Settings)
	neg := relevance.NegationsOf(r.Settings)
	p := textPlan{words: parseWords(req.Q, stops, neg, drop), neg: neg, typos: typoRulesOf(r.Settings, req.TypoTolerance), strategy: strategyOf(req)}
	p.units = units(p.words.kept, synonymRules(r.Settings.Synonyms, stops))
	p.fields, p.ranks = searchFields(r, s, p.typos)
	if p.strategy == StrategyFrequency {
		p.weigh(stats)
	}
	if tail {
		p.tail = p.tieBreak(stats)
	}
	p.radix = newRadix(relevance.Ranking(r.Settings), p.sizes(), quantized)
	if p.tail != nil && p.radix.total() > tailLimit {
		p.tail = nil
	}
	return p
}

func strategyOf(req Request) string {
	if req.MatchingStrategy == "" {
		return StrategyFrequency
	}
	return req.MatchingStrategy
}

// sizes are the number of levels of each text criterion for this query.
func (p textPlan) sizes() map[searchv1alpha1.RankingCriterion]int64 {
	n := int64(len(p.words.kept))
	sizes := map[searchv1alpha1.RankingCriterion]int64{critExact: n + 1}
	switch p.strategy {
	case StrategyAll:
	case StrategyFrequency:
		sizes[critWords] = int64(p.wordsOf(0, len(p.words.kept))+negationLevels*len(p.words.negated)) + 1
	default:
		sizes[critWords] = n + int64(negationLevels*len(p.words.negated)) + 1
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
	if p.semantic.meaningOnly(len(p.words.kept)) {
		return p.semantic.meaningQuery(ranked)
	}
	if len(p.words.kept) == 0 {
		return matchAllRanked(ranked)
	}
	var clauses []any
	for i, u := range p.units {
		if p.ignoredUnit(u) {
			continue
		}
		if p.relaxed != nil && p.relaxed[i] {
			clauses = append(clauses, p.relaxedClause(u, p.clauseName(i)))
			continue
		}
		clauses = append(clauses, p.unitClause(u, p.wordsLevel(i), p.clauseName(i)))
	}
	if len(clauses) == 0 && p.semantic != nil {
		return p.semantic.meaningQuery(ranked)
	}
	if len(clauses) == 0 {
		return matchNone
	}
	var must, should []any
	switch p.strategy {
	case StrategyAny, StrategyFrequency:
		must = []any{map[string]any{"bool": map[string]any{"should": clauses, "minimum_should_match": 1}}}
	case StrategyLast:
		must, should = clauses[:1], append(clauses[1:], p.longestRun(clauses)...)
	default:
		must = clauses
	}
	must = p.semantic.orMeaning(must)
	should = append(append(append(should, p.proximity()...), p.negationClauses()...), ranked...)
	if p.tail != nil {
		should = append(should, p.tail.clause())
	}
	return boolQ(map[string][]any{"must": must, "should": should})
}

// wordsLevel is the words level of k words of unit i from its word from on: k with
// any (each word matched counts), the first unit's with last (the run clauses count the
// others), their weights with frequency, none with all (every word matches).
func (p textPlan) wordsLevel(i int) func(from, k int) int {
	switch {
	case p.strategy == StrategyFrequency:
		return p.wordsOf
	case p.strategy == StrategyAny, p.strategy == StrategyLast && i == 0:
		return func(_, k int) int { return k }
	}
	return func(int, int) int { return 0 }
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
func (p textPlan) unitClause(u unit, wordsLevel func(from, k int) int, name string) any {
	var variants []variant
	if u.size() == 1 {
		variants = p.wordVariants(p.words.kept[u.first], wordsLevel(u.first, 1))
	} else {
		words := make([]any, 0, u.size())
		for i, w := range p.words.kept[u.first : u.last+1] {
			words = append(words, bestOf(p.wordVariants(w, wordsLevel(u.first+i, 1)), ""))
		}
		variants = []variant{wordsQuery{Bool: wordsBody{Must: words}}}
	}
	for _, a := range u.alts {
		variants = append(variants, p.altVariants(a, u.size(), wordsLevel(u.first, u.size()))...)
	}
	return bestOf(variants, name)
}
