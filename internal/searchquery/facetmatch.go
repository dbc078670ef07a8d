package searchquery

import (
	"strings"

	"github.com/aislehq/aisle/internal/relevance"
)

// A facet value search matches values of a facet field in Go (Elasticsearch cannot
// match with typos inside a terms aggregation), by the rules the query matches words
// with: the query's words are folded (lowercase, accents folded) and matched against
// consecutive words of the value, from any word on, each within the typos the index's
// typoTolerance allows it (typoRules.allowed: none below minWordSizeFor1Typo letters,
// one below minWordSizeFor2Typos, two from there; a transposition is one typo, a typo in
// the first letter two); the last query word is matched as a prefix of its value word,
// with the same typos. The matched part of each word is what highlighted marks.

// facetMatcher matches the values of one facet value search.
type facetMatcher struct {
	words []qword
	typos typoRules
	// wholeLast matches the last word whole too (query suggestions, after a space).
	wholeLast bool
}

func newFacetMatcher(query string, t typoRules) facetMatcher {
	m := facetMatcher{typos: t}
	for _, w := range splitWords(query) {
		m.words = append(m.words, qword{text: w, fold: relevance.Fold(w)})
	}
	return m
}

// facetMatch is how a value matched: its typos and the rune spans matched.
type facetMatch struct {
	typos int
	spans [][2]int
}

// match finds the query in value, with the fewest typos; false when it is not there.
// An empty query matches every value.
func (m facetMatcher) match(value string) (facetMatch, bool) {
	if len(m.words) == 0 {
		return facetMatch{}, true
	}
	runes := []rune(value)
	words := wordSpans(runes)
	best, found := facetMatch{}, false
	for start := 0; start+len(m.words) <= len(words); start++ {
		fm, ok := m.matchAt(runes, words[start:start+len(m.words)])
		if ok && (!found || fm.typos < best.typos) {
			best, found = fm, true
		}
	}
	return best, found
}

// matchAt matches the query's words against the value words at spans, in order.
func (m facetMatcher) matchAt(runes []rune, spans [][2]int) (facetMatch, bool) {
	fm := facetMatch{}
	for i, w := range m.words {
		allowed := m.typos.allowed(w)
		word := foldRunes(runes[spans[i][0]:spans[i][1]])
		var typos, length int
		if i == len(m.words)-1 && !m.wholeLast {
			typos, length = prefixDistance([]rune(w.fold), word.runes)
		} else {
			typos, length = firstLetterDistance([]rune(w.fold), word.runes), len(word.runes)
		}
		if typos > allowed {
			return facetMatch{}, false
		}
		fm.typos += typos
		fm.spans = append(fm.spans, [2]int{spans[i][0], spans[i][0] + word.origin(length)})
	}
	return fm, true
}

// folded is a word folded rune by rune, with the number of original runes each folded
// rune ends at, to mark the original text.
type folded struct {
	runes []rune
	ends  []int
}

func foldRunes(word []rune) folded {
	var f folded
	for i, r := range word {
		for _, fr := range relevance.Fold(string(r)) {
			f.runes = append(f.runes, fr)
			f.ends = append(f.ends, i+1)
		}
	}
	return f
}

// origin is the number of original runes the first n folded runes come from.
func (f folded) origin(n int) int {
	if n == 0 {
		return 0
	}
	return f.ends[n-1]
}

// firstLetterDistance is the typos between a query word and a word: the edits (a
// transposition is one), and one more when the first letters differ.
func firstLetterDistance(q, w []rune) int {
	d := editTable(q, w)
	return d[len(q)][len(w)] + firstLetterCost(q, w)
}

// prefixDistance is the typos between a query word and the prefix of w that it is
// closest to, with the prefix's length (the closest in length among equals).
func prefixDistance(q, w []rune) (typos, length int) {
	d := editTable(q, w)
	typos, length = -1, 0
	for j := 0; j <= len(w); j++ {
		c := d[len(q)][j] + firstLetterCost(q, w[:j])
		if typos < 0 || c < typos || (c == typos && abs(j-len(q)) < abs(length-len(q))) {
			typos, length = c, j
		}
	}
	return typos, length
}

// firstLetterCost: a typo in the first letter counts as two.
func firstLetterCost(q, w []rune) int {
	if len(q) > 0 && len(w) > 0 && q[0] != w[0] {
		return 1
	}
	return 0
}

// editTable is the optimal string alignment distances between the prefixes of a and b:
// insertions, deletions, substitutions and transpositions of neighbours, one each.
func editTable(a, b []rune) [][]int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// highlight is value HTML-escaped with the matched spans in <em>.
func (fm facetMatch) highlight(value string) string {
	runes := []rune(value)
	var b strings.Builder
	at := 0
	for _, sp := range fm.spans {
		if sp[1] <= sp[0] || sp[0] < at {
			continue
		}
		b.WriteString(escapeHTML(string(runes[at:sp[0]])))
		b.WriteString(preTag + escapeHTML(string(runes[sp[0]:sp[1]])) + postTag)
		at = sp[1]
	}
	b.WriteString(escapeHTML(string(runes[at:])))
	return b.String()
}
