package merch

import (
	"iter"
	"slices"
	"strings"
	"time"
)

// How a query finds its rules. A Set holds an index's enabled rules with each
// condition's terms in a map per anchoring, keyed by the terms joined: the query's terms
// are looked up whole (is), by their first and last runs (startsWith, endsWith, up to
// the longest such pattern) and by every run (contains, up to the longest such pattern).
// So matching costs a few map lookups per query word, whatever the number of rules.
//
// The rules that match apply in this order: the most specific anchoring of their
// matching conditions first (is, then startsWith and endsWith, then contains, then
// conditions without a pattern), then the longer pattern (in words), then objectID. At
// most MaxApplied apply; the first rule with a query consequence rewrites the query.
// Rules without a pattern are kept in objectID order once, so a search reads only the
// first few of them.

// Ranks of the anchorings, most specific first.
const (
	rankIs = iota
	rankEdge
	rankContains
)

// Slots of Set.keys, one per anchoring.
const (
	slotIs = iota
	slotStarts
	slotEnds
	slotContains
	slots
)

var slotOf = map[string]int{Is: slotIs, StartsWith: slotStarts, EndsWith: slotEnds, Contains: slotContains}

// Set is an index's rules compiled for matching.
type Set struct {
	rules []compiled
	// keys holds, per anchoring, the rules of each pattern (its terms joined); longest
	// the longest pattern of each, in terms.
	keys    [slots]map[string][]int
	longest [slots]int
	always  []int
}

// compiled is one rule with its terms in the language of the set.
type compiled struct {
	rule  Rule
	terms terms
}

// match is a rule a pattern matches, with how closely.
type match struct {
	rule, rank, length int
}

// compile builds the set of the enabled rules of docs (whose terms are in the set's
// language).
func compile(docs []ruleDoc) *Set {
	s := &Set{}
	for i := range s.keys {
		s.keys[i] = map[string][]int{}
	}
	for _, d := range docs {
		if !d.Rule.enabled() {
			continue
		}
		i := len(s.rules)
		s.rules = append(s.rules, compiled{rule: d.Rule, terms: d.Terms})
		s.index(i, d)
	}
	slices.SortFunc(s.always, func(a, b int) int { return strings.Compare(s.rules[a].rule.ObjectID, s.rules[b].rule.ObjectID) })
	s.always = slices.Compact(s.always)
	return s
}

func (s *Set) index(i int, d ruleDoc) {
	if len(d.Rule.Conditions) == 0 {
		s.always = append(s.always, i)
	}
	for j, c := range d.Rule.Conditions {
		if c.Pattern == nil {
			s.always = append(s.always, i)
			continue
		}
		if j >= len(d.Terms.Patterns) || *c.Pattern != "" && len(d.Terms.Patterns[j]) == 0 {
			continue // a pattern the language reads no word in matches no query
		}
		slot := slotOf[c.Anchoring]
		ts := d.Terms.Patterns[j]
		key := strings.Join(ts, " ")
		if !slices.Contains(s.keys[slot][key], i) {
			s.keys[slot][key] = append(s.keys[slot][key], i)
		}
		s.longest[slot] = max(s.longest[slot], len(ts))
	}
}

// Empty reports a set without rules.
func (s *Set) Empty() bool { return s == nil || len(s.rules) == 0 }

// needsQuery reports rules with patterns: only they need the query's terms.
func (s *Set) needsQuery() bool {
	for _, k := range s.keys {
		if len(k) > 0 {
			return true
		}
	}
	return false
}

// Match returns the rules valid at now that match a query of terms q, in the order
// they apply: those a pattern matches, then those without a pattern (kept in objectID
// order), so that a search reads only as many as it applies.
func (s *Set) Match(q []string, now time.Time) iter.Seq[*compiled] {
	best := s.patternMatches(q)
	ms := make([]match, 0, len(best))
	for _, m := range best {
		ms = append(ms, m)
	}
	slices.SortFunc(ms, func(a, b match) int {
		switch {
		case a.closer(b):
			return -1
		case b.closer(a):
			return 1
		}
		return strings.Compare(s.rules[a.rule].rule.ObjectID, s.rules[b.rule].rule.ObjectID)
	})
	return func(yield func(*compiled) bool) {
		for _, m := range ms {
			if c := &s.rules[m.rule]; c.rule.validAt(now) && !yield(c) {
				return
			}
		}
		for _, i := range s.always {
			if _, matched := best[i]; matched {
				continue
			}
			if c := &s.rules[i]; c.rule.validAt(now) && !yield(c) {
				return
			}
		}
	}
}

// patternMatches finds the rules a pattern matches, each with its closest match.
func (s *Set) patternMatches(q []string) map[int]match {
	best := map[int]match{}
	consider := func(slot, rank int, ts []string) {
		for _, i := range s.keys[slot][strings.Join(ts, " ")] {
			m := match{rule: i, rank: rank, length: len(ts)}
			if b, seen := best[i]; !seen || m.closer(b) {
				best[i] = m
			}
		}
	}
	consider(slotIs, rankIs, q)
	for k := 1; k <= min(len(q), s.longest[slotStarts]); k++ {
		consider(slotStarts, rankEdge, q[:k])
	}
	for k := 1; k <= min(len(q), s.longest[slotEnds]); k++ {
		consider(slotEnds, rankEdge, q[len(q)-k:])
	}
	for i := range q {
		for k := 1; k <= min(len(q)-i, s.longest[slotContains]); k++ {
			consider(slotContains, rankContains, q[i:i+k])
		}
	}
	return best
}

// closer reports m as a closer match than b.
func (m match) closer(b match) bool {
	return m.rank < b.rank || m.rank == b.rank && m.length > b.length
}
