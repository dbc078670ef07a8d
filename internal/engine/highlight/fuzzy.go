package highlight

import (
	"fmt"
	"strconv"
	"strings"
)

// fuzzy is a step's fuzziness: a term matches within edits of the query's.
type fuzzy struct {
	edits, prefixLen int
	transpositions   bool
	// autoLo and autoHi are AUTO's bounds; autoLo is -1 for a fixed number of edits.
	autoLo, autoHi int
}

// fuzziness reads fuzziness, prefix_length and the transpositions flag (named tkey); nil
// when the query has no fuzziness.
func fuzziness(opts map[string]any, tkey string) *fuzzy {
	v, ok := opts["fuzziness"]
	if !ok {
		return nil
	}
	f := &fuzzy{transpositions: true, autoLo: -1}
	s := strings.ToUpper(fmt.Sprint(v))
	if auto, ok := strings.CutPrefix(s, "AUTO"); ok {
		f.autoLo, f.autoHi = 3, 6
		if lo, hi, ok := strings.Cut(strings.TrimPrefix(auto, ":"), ","); ok {
			f.autoLo, _ = strconv.Atoi(lo)
			f.autoHi, _ = strconv.Atoi(hi)
		}
	} else {
		x, _ := strconv.ParseFloat(s, 64)
		f.edits = min(int(x), 2)
	}
	if p, ok := opts["prefix_length"]; ok {
		f.prefixLen, _ = strconv.Atoi(fmt.Sprint(p))
	}
	if t, ok := opts[tkey]; ok {
		f.transpositions = t == true || t == "true"
	}
	return f
}

// fix resolves AUTO fuzziness for one term: no edit below autoLo code points, one below
// autoHi, two from there, as ES's AUTO:low,high.
func (f *fuzzy) fix(term string) *fuzzy {
	out := *f
	if f.autoLo >= 0 {
		out.edits = autoEdits(term, f.autoLo, f.autoHi)
	}
	return &out
}

func autoEdits(term string, lo, hi int) int {
	n := len([]rune(term))
	switch {
	case n < lo:
		return 0
	case n < hi:
		return 1
	}
	return 2
}

// within reports whether term is at most f.edits edits from want, its first prefixLen
// code points unchanged; with transpositions two adjacent characters swapped are one
// edit (Damerau-Levenshtein, as Lucene's Levenshtein automata count them).
func (f *fuzzy) within(want, term string) bool {
	if want == term {
		return true
	}
	if f.edits == 0 {
		return false
	}
	w, t := []rune(want), []rune(term)
	p := min(f.prefixLen, len(w))
	if len(t) < p || string(t[:p]) != string(w[:p]) {
		return false
	}
	w, t = w[p:], t[p:]
	if d := len(w) - len(t); d > f.edits || -d > f.edits {
		return false
	}
	return distance(w, t, f.transpositions, f.edits) <= f.edits
}

// distance is the optimal string alignment distance of a and b, stopping early once
// every way through exceeds limit.
func distance(a, b []rune, transpositions bool, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if transpositions && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return best
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
