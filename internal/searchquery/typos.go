package searchquery

import (
	"unicode/utf8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// typoRules decide how many typos a query word may carry: none below
// minWordSizeFor1Typo letters, one below minWordSizeFor2Typos, two from there; none for
// digits (unless onNumbers) or the words listed; none at all when off. A transposition
// counts as one typo; a typo in the first letter counts as two (prefix_length 1 on the
// one-typo variant), as in Meilisearch and Algolia.
type typoRules struct {
	enabled    bool
	min1, min2 int
	onNumbers  bool
	words      map[string]bool
	fields     map[string]bool
}

func typoRulesOf(s searchv1alpha1.IndexSettings, request *bool) typoRules {
	t := relevance.TypoTolerance(s)
	r := typoRules{
		enabled: *t.Enabled && boolOr(request, true),
		min1:    int(t.MinWordSizeFor1Typo), min2: int(t.MinWordSizeFor2Typos),
		onNumbers: t.OnNumbers, words: map[string]bool{}, fields: map[string]bool{},
	}
	for _, w := range t.DisableOnWords {
		r.words[relevance.Fold(w)] = true
	}
	for _, f := range t.DisableOnFields {
		r.fields[string(f)] = true
	}
	return r
}

// allowed is the number of typos w may carry.
func (r typoRules) allowed(w qword) int {
	n := utf8.RuneCountInString(w.fold)
	switch {
	case !r.enabled || r.words[w.fold] || (!r.onNumbers && digitsOnly(w.fold)):
		return 0
	case n >= r.min2:
		return 2
	case n >= r.min1:
		return 1
	}
	return 0
}
