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
// Within each pattern, and among the conditions without one, conditions sit behind
// their gates (gate.go): a search tests only those behind the gates it opens, so that
// 10,000 rules on categories, brands and contexts cost a search what the few of its
// category, brand and contexts cost.
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
	// keys holds, per anchoring, the conditions of each pattern (its terms joined);
	// longest the longest pattern of each, in terms.
	keys    [slots]map[string]gated
	longest [slots]int
	// patternless holds the conditions without a pattern, each gate's in objectID order.
	patternless gated
}

// compiled is one rule with its terms in the language of the set, and its conditions'
// filters and contexts.
type compiled struct {
	rule  Rule
	terms terms
	conds []condition
}

// ref is one condition of a rule (cond -1: a rule without conditions). Rules are in
// objectID order, so refs compare as their rules' objectIDs do.
type ref struct{ rule, cond int }

// match is a rule a pattern matches, with how closely.
type match struct {
	rule, rank, length int
}

// compile builds the set of the enabled rules of docs (whose terms are in the set's
// language).
func compile(docs []ruleDoc) *Set {
	s := &Set{patternless: gated{}}
	for i := range s.keys {
		s.keys[i] = map[string]gated{}
	}
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b ruleDoc) int { return strings.Compare(a.Rule.ObjectID, b.Rule.ObjectID) })
	for _, d := range docs {
		if !d.Rule.enabled() {
			continue
		}
		i := len(s.rules)
		c := compiled{rule: d.Rule, terms: d.Terms, conds: make([]condition, len(d.Rule.Conditions))}
		for j, cond := range d.Rule.Conditions {
			c.conds[j] = conditionOf(cond)
		}
		s.rules = append(s.rules, c)
		s.index(i, d)
	}
	return s
}

// index files rule i's conditions: appended in rule order, each list stays in objectID
// order.
func (s *Set) index(i int, d ruleDoc) {
	if len(d.Rule.Conditions) == 0 {
		s.patternless.add(gate{}, ref{rule: i, cond: -1})
	}
	for j, c := range d.Rule.Conditions {
		r := ref{rule: i, cond: j}
		at := gateOf(s.rules[i].conds[j])
		switch {
		case c.Pattern == nil:
			s.patternless.add(at, r)
			continue
		case j >= len(d.Terms.Patterns) || *c.Pattern != "" && len(d.Terms.Patterns[j]) == 0:
			continue // a pattern the language reads no word in matches no query
		}
		slot := slotOf[c.Anchoring]
		ts := d.Terms.Patterns[j]
		key := strings.Join(ts, " ")
		if s.keys[slot][key] == nil {
			s.keys[slot][key] = gated{}
		}
		s.keys[slot][key].add(at, r)
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

// holds reports whether condition r holds for the search h besides its pattern.
func (s *Set) holds(r ref, h held) bool {
	return r.cond < 0 || h.holds(s.rules[r.rule].conds[r.cond])
}

// Match returns the rules valid at now that match a search of h whose query has terms
// q, in the order they apply: those a pattern matches, then those without a pattern (in
// objectID order), so that a search reads only as many as it applies.
func (s *Set) Match(q []string, h held, now time.Time) iter.Seq[*compiled] {
	gates := h.gates()
	best := s.patternMatches(q, h, gates)
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
		return a.rule - b.rule
	})
	return func(yield func(*compiled) bool) {
		for _, m := range ms {
			if c := &s.rules[m.rule]; c.rule.validAt(now) && !yield(c) {
				return
			}
		}
		last := -1
		for r := range s.patternlessBehind(gates) {
			if _, matched := best[r.rule]; matched || r.rule == last || !s.holds(r, h) {
				continue
			}
			last = r.rule
			if c := &s.rules[r.rule]; c.rule.validAt(now) && !yield(c) {
				return
			}
		}
	}
}

// patternlessBehind yields the conditions without a pattern behind gates, in objectID
// order (those of one rule one after the other): the gates' lists merged.
func (s *Set) patternlessBehind(gates []gate) iter.Seq[ref] {
	var lists [][]ref
	for _, g := range gates {
		if refs := s.patternless[g]; len(refs) > 0 {
			lists = append(lists, refs)
		}
	}
	return merged(lists)
}

// merged yields the refs of lists, each in order, in order.
func merged(lists [][]ref) iter.Seq[ref] {
	return func(yield func(ref) bool) {
		if len(lists) == 1 {
			for _, r := range lists[0] {
				if !yield(r) {
					return
				}
			}
			return
		}
		heads := make([]int, len(lists))
		for {
			next := -1
			for i, l := range lists {
				if heads[i] < len(l) && (next < 0 || before(l[heads[i]], lists[next][heads[next]])) {
					next = i
				}
			}
			if next < 0 || !yield(lists[next][heads[next]]) {
				return
			}
			heads[next]++
		}
	}
}

func before(a, b ref) bool { return a.rule < b.rule || a.rule == b.rule && a.cond < b.cond }

// patternMatches finds the rules a pattern matches (the rest of its condition holding
// for h), each with its closest match.
func (s *Set) patternMatches(q []string, h held, gates []gate) map[int]match {
	best := map[int]match{}
	consider := func(slot, rank int, ts []string) {
		behind := s.keys[slot][strings.Join(ts, " ")]
		if behind == nil {
			return
		}
		for _, g := range gates {
			for _, r := range behind[g] {
				m := match{rule: r.rule, rank: rank, length: len(ts)}
				if b, seen := best[r.rule]; (!seen || m.closer(b)) && s.holds(r, h) {
					best[r.rule] = m
				}
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
