package searchquery

import (
	"maps"
	"slices"

	"github.com/aislehq/aisle/internal/relevance"
)

// A query may say what the product lacks: "marshmallows without gelatin", "no show
// socks", "gluten free pasta". The negated word and the word saying so are not words to
// match (a record needs neither); with the frequency and any strategies they rank: a
// record that says it (the query's phrase, or the other ways of saying it) first, one
// that does not hold the word next, one that holds it last, at the level of one word.

// negation is a negated query word and its marker.
type negation struct {
	word, marker qword
}

// negationLevels are a negation's levels in the words criterion: said, lacking, holding.
const negationLevels = 2

// negations finds the negations of a query's words: a marker before a word (without X)
// or after it (X free), neither a stop word the query drops. None when nothing else would
// be left to match. It returns them and the positions of their words.
func negations(all []qword, stops relevance.Stops, neg relevance.Negations) ([]negation, map[int]bool) {
	var out []negation
	used := map[int]bool{}
	content := func(i int) bool {
		return i >= 0 && i < len(all) && !used[i] && !neg.Before[all[i].fold] && !neg.After[all[i].fold] &&
			!stops.Dropped[all[i].fold]
	}
	for i, w := range all {
		switch {
		case used[i]:
		case neg.Before[w.fold] && content(i+1):
			out = append(out, negation{word: all[i+1], marker: w})
			used[i], used[i+1] = true, true
		case neg.After[w.fold] && content(i-1):
			out = append(out, negation{word: all[i-1], marker: w})
			used[i], used[i-1] = true, true
		}
	}
	for i := range all {
		if !used[i] && !stops.Dropped[all[i].fold] {
			return out, used
		}
	}
	return nil, nil
}

// negationClauses rank each negation in the words criterion: none when the strategy
// has no words band.
func (p textPlan) negationClauses() []any {
	base := p.radix.base(critWords)
	if base == 0 || len(p.words.negated) == 0 {
		return nil
	}
	// The words fields keep every word: the stop filter of a language analyser would
	// drop "no" and leave a hole any word fills.
	var paths, words []string
	for _, g := range p.groups(exactFields) {
		paths = append(paths, g.paths...)
	}
	for _, g := range p.groups(wordsFields) {
		words = append(words, g.paths...)
	}
	var out []any
	for _, n := range p.words.negated {
		var said []any
		for _, b := range slices.Sorted(maps.Keys(p.neg.Before)) {
			said = append(said, textMatch(words, b+" "+n.word.text, phrase))
		}
		for _, a := range slices.Sorted(maps.Keys(p.neg.After)) {
			said = append(said, textMatch(words, n.word.text+" "+a, phrase))
		}
		lacking := boolQ(map[string][]any{"must_not": {textMatch(paths, n.word.text, allWords)}})
		out = append(out, disMax([]any{
			constant(boolQ(map[string][]any{"should": said}), negationLevels*base),
			constant(lacking, base),
		}))
	}
	return out
}
