package scoring

import "sort"

// repeats are the groups of a sloppy phrase's positions that share terms (Lucene's
// repetition groups): two phrase positions of one group must not stand on the same
// document position.
type repeats struct {
	groups [][]*phrasePos // each sorted by offset
	// multiTerm: a phrase position of a group has several terms (a prefix's expansions),
	// so collisions must be looked for, not only counted.
	multiTerm bool
	marked    []bool
	stack     []*phrasePos
}

// repeatGroups finds the groups of pps, nil when no term repeats. Lucene groups the
// phrase positions of a repeated term by their position in the first document, which
// for phrase positions with one term each is grouping them by term; with several terms,
// phrase positions sharing a repeated term, directly or through others, make a group.
func repeatGroups(pps []*phrasePos) *repeats {
	repeated := repeatedTerms(pps)
	if len(repeated) == 0 {
		return nil
	}
	r := &repeats{stack: make([]*phrasePos, len(pps)), marked: make([]bool, len(pps))}
	root := unionTerms(pps, repeated)
	index := map[string]int{}
	for _, pp := range pps {
		pp.rptGroup = -1
		for _, t := range pp.terms {
			if !repeated[t] {
				continue
			}
			r.multiTerm = r.multiTerm || len(pp.terms) > 1
			g, ok := index[root(t)]
			if !ok {
				g = len(r.groups)
				index[root(t)] = g
				r.groups = append(r.groups, nil)
			}
			pp.rptGroup = g
		}
		if pp.rptGroup >= 0 {
			r.groups[pp.rptGroup] = append(r.groups[pp.rptGroup], pp)
		}
	}
	for _, rg := range r.groups {
		sort.Slice(rg, func(i, j int) bool { return rg[i].offset < rg[j].offset })
		for i, pp := range rg {
			pp.rptInd = i
		}
	}
	return r
}

// repeatedTerms are the terms that more than one phrase position holds.
func repeatedTerms(pps []*phrasePos) map[string]bool {
	seen := map[string]bool{}
	out := map[string]bool{}
	for _, pp := range pps {
		for _, t := range pp.terms {
			if seen[t] {
				out[t] = true
			}
			seen[t] = true
		}
	}
	return out
}

// unionTerms joins the repeated terms held by one phrase position, and returns the
// representative of a term's set.
func unionTerms(pps []*phrasePos, repeated map[string]bool) func(string) string {
	parent := map[string]string{}
	var root func(string) string
	root = func(t string) string {
		p, ok := parent[t]
		if !ok || p == t {
			return t
		}
		r := root(p)
		parent[t] = r
		return r
	}
	for _, pp := range pps {
		first := ""
		for _, t := range pp.terms {
			if !repeated[t] {
				continue
			}
			if first == "" {
				first = root(t)
				continue
			}
			if rt := root(t); rt != first {
				parent[rt] = first
			}
		}
	}
	return root
}

// separate moves the phrase positions of each group apart at the start of a document
// (SloppyPhraseMatcher.advanceRepeatGroups); false when one runs out of positions.
func (r *repeats) separate(m *sloppyMatcher) bool {
	for _, rg := range r.groups {
		if !r.multiTerm {
			// The k-th of a group moves k times: the group then stands on k distinct
			// positions of its one term.
			for j := 1; j < len(rg); j++ {
				for k := 0; k < j; k++ {
					if !rg[j].nextPosition() {
						return false
					}
				}
			}
			continue
		}
		if !r.separateColliding(m, rg) {
			return false
		}
	}
	return true
}

// separateColliding resolves the collisions of a group whose phrase positions have
// several terms: the lesser of two colliding ones moves on, and a move of an earlier
// one looks at it again.
func (r *repeats) separateColliding(m *sloppyMatcher, rg []*phrasePos) bool {
	incr := 1
	for i := 0; i < len(rg); i += incr {
		incr = 1
		pp := rg[i]
		for k := collide(rg, pp); k >= 0; k = collide(rg, pp) {
			pp2 := lesser(pp, rg[k])
			if !m.advance(pp2) {
				return false
			}
			if pp2.rptInd < i {
				incr = 0
				break
			}
		}
	}
	return true
}

// advance resolves the collision pp may have made by moving on (advanceRpts): the
// lesser of two colliding phrase positions moves on until none collide, and those moved
// while in the queue are taken out and put back.
func (r *repeats) advance(m *sloppyMatcher, pp *phrasePos) bool {
	if pp.rptGroup < 0 {
		return true
	}
	rg := r.groups[pp.rptGroup]
	marked := r.marked[:len(rg)]
	clear(marked)
	count := 0
	k0 := pp.rptInd
	for k := collide(rg, pp); k >= 0; k = collide(rg, pp) {
		pp = lesser(pp, rg[k])
		if !m.advance(pp) {
			return false
		}
		if k != k0 && !marked[k] {
			marked[k] = true
			count++
		}
	}
	n := 0
	for count > 0 {
		pp2 := m.pq.pop()
		r.stack[n] = pp2
		n++
		// As Lucene's, the check reads the index in the group of whatever phrase
		// position comes out, whichever its group.
		if pp2.rptGroup >= 0 && pp2.rptInd < len(marked) && marked[pp2.rptInd] {
			marked[pp2.rptInd] = false
			count--
		}
	}
	for i := n - 1; i >= 0; i-- {
		m.pq.add(r.stack[i])
	}
	return true
}

// collide is the index in rg of a phrase position on pp's document position, or -1.
func collide(rg []*phrasePos, pp *phrasePos) int {
	at := pp.tpPos()
	for _, pp2 := range rg {
		if pp2 != pp && pp2.tpPos() == at {
			return pp2.rptInd
		}
	}
	return -1
}

// lesser is the one of two phrase positions with the lesser position, then offset.
func lesser(a, b *phrasePos) *phrasePos {
	if a.position < b.position || (a.position == b.position && a.offset < b.offset) {
		return a
	}
	return b
}
