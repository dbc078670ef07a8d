package searchquery

import (
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// Synonyms apply at query time: a run of query words equal to a synonym entry's input
// (a multiWay term, a oneWay input, an altCorrection word) becomes a unit that also
// matches the entry's alternatives, phrases included ("tv" ↔ "television set"), so that
// a change of the synonyms takes effect with the next search.

// alt is one alternative of a unit.
type alt struct {
	text string
	// words is the number of words of the alternative: a phrase when above 1.
	words int
	// typos is what a match of an altCorrection counts as (0 for a synonym).
	typos int
}

// unit is a run of consecutive kept query words, matched together: a single word, or
// the words a synonym entry's input spans.
type unit struct {
	first, last int
	alts        []alt
}

func (u unit) size() int { return u.last - u.first + 1 }

// rule is one input of a synonym entry and what it also finds.
type rule struct {
	input []string
	alts  []alt
}

// synonymRules turns the entries into rules, keyed by their input's first word. Inputs
// are compared as the query's words are: folded, without the words the query drops.
func synonymRules(groups []searchv1alpha1.SynonymGroup, stops relevance.Stops) map[string][]rule {
	out := map[string][]rule{}
	add := func(input string, alts []string, typos int) {
		words := matchWords(input, stops)
		if len(words) == 0 || len(alts) == 0 {
			return
		}
		r := rule{input: words}
		for _, a := range alts {
			if n := len(splitWords(a)); n > 0 {
				r.alts = append(r.alts, alt{text: a, words: n, typos: typos})
			}
		}
		out[words[0]] = append(out[words[0]], r)
	}
	for _, g := range groups {
		switch g.Type {
		case searchv1alpha1.SynonymOneWay:
			add(g.Input, g.Synonyms, 0)
		case searchv1alpha1.SynonymAltCorrection:
			add(g.Word, g.Corrections, int(max(g.Typos, 1)))
		default:
			for i, t := range g.Terms {
				add(t, slices.Delete(slices.Clone(g.Terms), i, i+1), 0)
			}
		}
	}
	return out
}

// matchWords are the words of a synonym input as the query compares them.
func matchWords(text string, stops relevance.Stops) []string {
	var all, kept []string
	for _, w := range splitWords(text) {
		f := relevance.Fold(w)
		all = append(all, f)
		if !stops.Dropped[f] {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

// units groups the kept words: from left to right, the longest run equal to a rule's
// input becomes one unit with the alternatives of every rule of that input; any other
// word is a unit of its own.
func units(words []qword, rules map[string][]rule) []unit {
	var out []unit
	for i := 0; i < len(words); {
		u := unit{first: i, last: i}
		for _, r := range rules[words[i].fold] {
			end := i + len(r.input) - 1
			if end >= len(words) || end < u.last || !spells(words[i:end+1], r.input) {
				continue
			}
			if end > u.last {
				u = unit{first: i, last: end}
			}
			u.alts = appendAlts(u.alts, r.alts)
		}
		out = append(out, u)
		i = u.last + 1
	}
	return out
}

func spells(words []qword, input []string) bool {
	for i, w := range words {
		if w.fold != input[i] {
			return false
		}
	}
	return true
}

// appendAlts adds alternatives not already there (compared folded).
func appendAlts(have, more []alt) []alt {
	for _, a := range more {
		dup := slices.ContainsFunc(have, func(h alt) bool { return strings.EqualFold(relevance.Fold(h.text), relevance.Fold(a.text)) })
		if !dup {
			have = append(have, a)
		}
	}
	return have
}
