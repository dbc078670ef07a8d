package dsl

import (
	"math/rand"
	"testing"
)

// osa is the optimal string alignment distance (Levenshtein's without transpositions),
// by the full matrix.
func osa(a, b []rune, transpositions bool) int {
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
			if transpositions && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func randomWord(r *rand.Rand) []rune {
	letters := []rune("abcé")
	w := make([]rune, r.Intn(7))
	for i := range w {
		w[i] = letters[r.Intn(len(letters))]
	}
	return w
}

// The automata count edits as the reference distances do, up to their maximum: with
// transpositions it is the automaton bleve walks the dictionary with, whose distances
// fuzzy expansion takes as they are.
func TestLevenshteinAutomata(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		a, b := randomWord(r), randomWord(r)
		for _, tr := range []bool{true, false} {
			for edits := 1; edits <= 2; edits++ {
				dfa, err := levenshtein(string(a), edits, tr)
				if err != nil {
					t.Fatal(err)
				}
				want := osa(a, b, tr)
				ok, got := dfa.MatchAndDistance(string(b))
				if ok != (want <= edits) || (ok && int(got) != want) {
					t.Fatalf("%q %q edits %d transpositions %v: %v %d, want distance %d", string(a), string(b), edits, tr, ok, got, want)
				}
			}
		}
	}
}

// A term with the query term's prefix is as far from it as what follows the prefix is
// from the query's rest: the distance bleve's automaton gives for the whole term is the
// one Lucene counts after prefix_length.
func TestDistanceAfterACommonPrefix(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		a, b := randomWord(r), randomWord(r)
		p := r.Intn(len(a) + 1)
		c := append(append([]rune{}, a[:p]...), b...)
		for _, tr := range []bool{true, false} {
			if whole, rest := osa(a, c, tr), osa(a[p:], c[p:], tr); whole != rest {
				t.Fatalf("%q %q prefix %d transpositions %v: %d, after the prefix %d", string(a), string(c), p, tr, whole, rest)
			}
		}
	}
}
