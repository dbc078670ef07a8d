package searchquery

import (
	"strings"
	"unicode"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// SuggestionMatcher matches past search queries against what a shopper is typing, for
// query suggestions, by the facet value matcher's rules (facetmatch.go) anchored at the
// query's first word: the typed words match the query's first words in order, each
// within the typos the index's typoTolerance allows it, the last one as a prefix unless
// a space follows it. A query holding an excluded word (folded) never matches.
type SuggestionMatcher struct {
	m       facetMatcher
	exclude map[string]bool
}

// NewSuggestionMatcher matches typed under the index's settings, leaving out queries
// holding one of the exclude words.
func NewSuggestionMatcher(typed string, s searchv1alpha1.IndexSettings, exclude []string) SuggestionMatcher {
	m := newFacetMatcher(typed, typoRulesOf(s, nil))
	m.wholeLast = strings.TrimRightFunc(typed, unicode.IsSpace) != typed
	out := SuggestionMatcher{m: m, exclude: map[string]bool{}}
	for _, w := range exclude {
		out.exclude[relevance.Fold(w)] = true
	}
	return out
}

// Match says whether query starts with what was typed, and with how many typos.
func (sm SuggestionMatcher) Match(query string) (typos int, ok bool) {
	runes := []rune(query)
	words := wordSpans(runes)
	for _, w := range words {
		if sm.exclude[relevance.Fold(string(runes[w[0]:w[1]]))] {
			return 0, false
		}
	}
	if len(words) < len(sm.m.words) {
		return 0, false
	}
	if len(sm.m.words) == 0 {
		return 0, true
	}
	fm, ok := sm.m.matchAt(runes, words[:len(sm.m.words)])
	return fm.typos, ok
}
