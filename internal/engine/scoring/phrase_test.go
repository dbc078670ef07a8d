package scoring

import (
	"slices"
	"strings"
	"testing"
)

// phraseFreq is the frequency of query (words, "|" joining the terms of one position,
// "_" a gap) in doc (words at positions 0, 1, ...) within slop: what PhraseSearcher
// computes once it has a document's positions.
func phraseFreq(query, doc string, slop int) float32 {
	return newMatcherOf(query, slop, true).Freq(positionsIn(query, doc))
}

// The frequencies below follow Lucene's SloppyPhraseMatcher step by step (each phrase
// position's document position less its offset in the query; the least is moved on; a
// match's length is the greatest less the least, and weighs 1 / (1 + length) as a
// float), and Elasticsearch's documentation of slop: "quick fox" needs a slop of 1 to
// match "quick brown fox", "fox quick" a slop of 3, and transposed terms a slop of 2.
func TestPhraseFrequencies(t *testing.T) {
	for _, c := range []struct {
		name, query, doc string
		slop             int
		want             float32
	}{
		{"an exact phrase counts its occurrences", "red shoe", "red shoe and red shoe", 0, 2},
		{"overlapping occurrences of a repeated word count each", "a a", "a a a", 0, 2},
		{"an exact phrase needs its words side by side", "quick fox", "quick brown fox", 0, 0},
		{"one word between is one move", "quick fox", "quick brown fox", 1, 0.5},
		{"a larger slop weighs the same match the same", "quick fox", "quick brown fox", 5, 0.5},
		{"reversed words a word apart are three moves", "fox quick", "quick brown fox", 3, 0.25},
		{"and do not match within two", "fox quick", "quick brown fox", 2, 0},
		{"transposed words are two moves", "b a", "a b", 2, float32(1) / 3},
		{"nor match within one", "b a", "a b", 1, 0},
		// Lucene's own example: "a b"~2 matches "x a b a y" twice, once side by side
		// (1) and once transposed (1/3).
		{"each least position moved on may match again", "a b", "x a b a y", 2, 1 + float32(1)/3},
		{"the slop is shared by all the words", "a b c", "a x b x c", 1, 0},
		{"two words apart in all is a length of two", "a b c", "a x b x c", 2, float32(1) / 3},
		// The least position moves on while that shortens the match: one match, side by
		// side, not three.
		{"the shortest placement of a match counts", "a b", "a a a b", 3, 1},
		{"a gap in the query (a removed stop word) is a position", "pen _ steel", "pen of steel", 0, 1},
		{"and is one move from words side by side", "pen _ steel", "pen steel", 1, 0.5},
		{"a position of several terms matches any of them", "red shoe|boot", "red boot", 0, 1},
		{"sloppily too", "red shoe|boot", "boot red", 2, float32(1) / 3},
		// A repeated word's phrase positions never share a document position: "a a"
		// cannot match a single "a".
		{"a repeated word needs two occurrences", "a a", "a b", 4, 0},
		{"which then match within the slop", "a a", "a b a", 1, 0.5},
		{"a repeated word around another", "a b a", "a b c a", 1, 0.5},
		{"repeats through a position of several terms", "a b a|c", "a b a", 2, 1},
	} {
		if got := phraseFreq(c.query, c.doc, c.slop); got != c.want {
			t.Errorf("%s: %q~%d in %q: frequency %v, want %v", c.name, c.query, c.slop, c.doc, got, c.want)
		}
	}
}

// Lucene's heap, with its order on ties: position, then offset in the query, then the
// order of the phrase positions.
func TestPhraseQueueOrder(t *testing.T) {
	q := newPhraseQueue(5)
	pps := []*phrasePos{{position: 3, offset: 0, ord: 0}, {position: 1, offset: 2, ord: 1},
		{position: 1, offset: 1, ord: 2}, {position: 1, offset: 1, ord: 3}, {position: -2, offset: 4, ord: 4}}
	for _, pp := range pps {
		q.add(pp)
	}
	var got []int
	for pp := q.pop(); pp != nil; pp = q.pop() {
		got = append(got, pp.ord)
	}
	if want := []int{4, 2, 3, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("popped %v, want %v", got, want)
	}
}

// The search loop keeps one matcher per segment and runs it on document after document:
// each document's frequency must be what a fresh matcher finds, whatever came before
// (repeat groups, the sloppy queue, a document whose positions ran out early).
func TestPhraseMatcherAcrossDocuments(t *testing.T) {
	docs := []string{"a b a c", "c a", "b a b a b", "a a b", "x y", "a c b a", "b", "a b c a b"}
	for _, query := range []string{"a b", "b a", "a b a", "a _ b", "a|c b"} {
		for _, slop := range []int{0, 1, 2, 8} {
			for _, freqs := range []bool{true, false} {
				m := newMatcherOf(query, slop, freqs)
				for _, doc := range docs {
					want := newMatcherOf(query, slop, freqs).Freq(positionsIn(query, doc))
					if got := m.Freq(positionsIn(query, doc)); got != want {
						t.Errorf("%q~%d in %q after other documents: frequency %v, want %v", query, slop, doc, got, want)
					}
				}
			}
		}
	}
}

// A position of a term without positions (a field indexed without them) matches
// nothing, exactly or sloppily, whatever the document before held.
func TestPhraseWithoutPositions(t *testing.T) {
	for _, slop := range []int{0, 3} {
		m := newMatcherOf("a b", slop, true)
		if m.Freq(positionsIn("a b", "a b")) == 0 {
			t.Fatalf("slop %d: the phrase must match its own words", slop)
		}
		none := func(i int, buf []int) []int {
			if i == 0 {
				return append(buf, 0)
			}
			return buf
		}
		if got := m.Freq(none); got != 0 {
			t.Errorf("slop %d: a position without positions gave frequency %v, want 0", slop, got)
		}
	}
}

func newMatcherOf(query string, slop int, freqs bool) *PhraseMatcher {
	var positions []PhrasePosition
	for offset, word := range strings.Fields(query) {
		if word != "_" {
			positions = append(positions, PhrasePosition{Offset: offset, Terms: strings.Split(word, "|")})
		}
	}
	return NewPhraseMatcher(positions, slop, freqs)
}

// positionsIn fills a matcher of query with the positions of its terms in doc.
func positionsIn(query, doc string) func(i int, buf []int) []int {
	at := map[string][]int{}
	for i, w := range strings.Fields(doc) {
		at[w] = append(at[w], i)
	}
	var terms [][]string
	for _, word := range strings.Fields(query) {
		if word != "_" {
			terms = append(terms, strings.Split(word, "|"))
		}
	}
	return func(i int, buf []int) []int {
		for _, t := range terms[i] {
			buf = append(buf, at[t]...)
		}
		slices.Sort(buf)
		return buf
	}
}
