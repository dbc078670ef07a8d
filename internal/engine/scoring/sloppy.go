package scoring

import "math"

// sloppyMatcher is Lucene's SloppyPhraseMatcher: the matches of a phrase whose terms may
// stand up to slop position moves from where the query puts them. A match's length is
// the distance between its first and last phrase position, once each is less its offset
// in the query (so "a b" in "a x b" has length 1, and "b a" in "a b" length 2: the words
// swapped cost two moves); it counts 1 / (1 + length) in the frequency.
//
// As in Lucene, the least phrase position is the one moved on, so a document can match
// fewer times than it could ("a b c b a" scores differently for "a b c"~4 and "c b a"~4).
// Phrase positions repeating a term (the query "a b a", or a prefix expansion equal to an
// earlier word) never stand on the same document position: the lesser is moved on, as
// Lucene's repeat groups do.
type sloppyMatcher struct {
	pps         []*phrasePos
	slop        int
	pq          phraseQueue
	end         int // the greatest position of a phrase position
	rpt         *repeats
	positioned  bool
	matchLength int
}

func newSloppyMatcher(pps []*phrasePos, slop int) *sloppyMatcher {
	return &sloppyMatcher{pps: pps, slop: slop, pq: newPhraseQueue(len(pps)), rpt: repeatGroups(pps)}
}

// reset starts on the document whose positions the phrase positions now hold.
func (m *sloppyMatcher) reset() {
	m.positioned = m.initPositions()
	m.matchLength = math.MaxInt32
}

// weight is the current match's share of the frequency, a float as Lucene's.
func (m *sloppyMatcher) weight() float32 { return 1 / (1 + float32(m.matchLength)) }

// nextMatch is SloppyPhraseMatcher.nextMatch: it pops the least phrase position and
// moves it on while that does not take it past the next one, keeping the shortest
// match length; a match is reported when that length is within the slop.
func (m *sloppyMatcher) nextMatch() bool {
	if !m.positioned {
		return false
	}
	pp := m.pq.pop()
	m.matchLength = m.end - pp.position
	next := m.pq.top().position
	for m.advance(pp) {
		if m.rpt != nil && !m.rpt.advance(m, pp) {
			break
		}
		if pp.position > next {
			m.pq.add(pp)
			if m.matchLength <= m.slop {
				return true
			}
			pp = m.pq.pop()
			next = m.pq.top().position
			m.matchLength = m.end - pp.position
		} else if l := m.end - pp.position; l < m.matchLength {
			m.matchLength = l
		}
	}
	m.positioned = false
	return m.matchLength <= m.slop
}

// advance moves pp to its next position and keeps end; false when pp has none left.
func (m *sloppyMatcher) advance(pp *phrasePos) bool {
	if !pp.nextPosition() {
		return false
	}
	m.end = max(m.end, pp.position)
	return true
}

// initPositions places every phrase position on its first position (repeats apart) and
// fills the queue; false when a repeat group runs out of positions.
func (m *sloppyMatcher) initPositions() bool {
	m.end = math.MinInt32
	for _, pp := range m.pps {
		pp.firstPosition()
	}
	if m.rpt != nil && !m.rpt.separate(m) {
		return false
	}
	m.pq.clear()
	for _, pp := range m.pps {
		m.end = max(m.end, pp.position)
		m.pq.add(pp)
	}
	return true
}
