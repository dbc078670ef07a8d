package scoring

// exactMatcher is Lucene's ExactPhraseMatcher: a match is a position of the first
// phrase position where every other one stands at its offset from it; each counts 1 in
// the frequency.
type exactMatcher struct {
	pps []*phrasePos // by offset
	pos []int        // each one's current position in the document, -1 before the first
}

func newExactMatcher(pps []*phrasePos) *exactMatcher {
	return &exactMatcher{pps: pps, pos: make([]int, len(pps))}
}

func (m *exactMatcher) reset() {
	for i, pp := range m.pps {
		pp.upTo, m.pos[i] = 0, -1
	}
}

func (m *exactMatcher) weight() float32 { return 1 }

// nextMatch moves the lead on by one position, then every other phrase position to the
// lead's position plus its offset; one that overshoots takes the lead along.
func (m *exactMatcher) nextMatch() bool {
	if !m.step(0) {
		return false
	}
	lead := m.pps[0]
lead:
	for {
		at := m.pos[0] - lead.offset
		for j := 1; j < len(m.pps); j++ {
			want := at + m.pps[j].offset
			if !m.advanceTo(j, want) {
				return false
			}
			if m.pos[j] != want {
				if !m.advanceTo(0, m.pos[j]-m.pps[j].offset+lead.offset) {
					return false
				}
				continue lead
			}
		}
		return true
	}
}

// step reads phrase position i's next document position.
func (m *exactMatcher) step(i int) bool {
	pp := m.pps[i]
	if pp.upTo == len(pp.positions) {
		return false
	}
	m.pos[i] = pp.positions[pp.upTo]
	pp.upTo++
	return true
}

// advanceTo moves phrase position i to its first document position at or after target.
func (m *exactMatcher) advanceTo(i, target int) bool {
	for m.pos[i] < target {
		if !m.step(i) {
			return false
		}
	}
	return true
}
