package scoring

// PhraseMatcher checks a phrase against one document's positions of its terms: the
// positional matching of PhraseSearcher, shared with the engine's own search loop
// (package loop), which reads the positions of its candidates itself. It keeps state
// between documents (the matchers' queues and repeat groups), so each searcher or
// evaluator has its own.
type PhraseMatcher struct {
	pps     []*phrasePos
	matcher phraseMatcher
	freqs   bool
}

// NewPhraseMatcher matches the phrase of positions (at least two) within slop: exactly
// with slop 0 (ExactPhraseMatcher), else SloppyPhraseMatcher's placements. With freqs,
// Freq sums every match's weight (a score needs the frequency); without, the first
// match's is enough to know that the document matches.
func NewPhraseMatcher(positions []PhrasePosition, slop int, freqs bool) *PhraseMatcher {
	m := &PhraseMatcher{freqs: freqs}
	for i, p := range positions {
		m.pps = append(m.pps, &phrasePos{offset: p.Offset, ord: i, terms: p.Terms, rptGroup: -1})
	}
	if slop == 0 {
		m.matcher = newExactMatcher(m.pps)
	} else {
		m.matcher = newSloppyMatcher(m.pps, slop)
	}
	return m
}

// Freq is the phrase's frequency in a document, 0 when it does not match: fill appends
// to buf the document's positions of phrase position i's terms, ascending, and returns
// it (or a slice of its own: the matcher only reads it). A position of none (a field indexed without positions) matches nothing, as
// Lucene refuses such a field rather than match it.
func (m *PhraseMatcher) Freq(fill func(i int, buf []int) []int) float32 {
	for i, pp := range m.pps {
		pp.positions = fill(i, pp.positions[:0])
		if len(pp.positions) == 0 {
			return 0
		}
	}
	return m.matchFreq()
}

// matchFreq is PhraseScorer's sum of the matches' weights, or the first one's.
func (m *PhraseMatcher) matchFreq() float32 {
	pm := m.matcher
	pm.reset()
	if !pm.nextMatch() {
		return 0
	}
	freq := pm.weight()
	for m.freqs && pm.nextMatch() {
		freq += pm.weight()
	}
	return freq
}
