package loop

import "math/bits"

// Nodes of a filter's plan: they find documents without scoring them (their blocks'
// scores are not set), and Constant gives a filter's matches the score of
// constant_score. A filter's plan stands only where scores are not read: under
// Constant, as a Conjunction's clause past its scoring ones, or among a bool's
// exclusions.

// Constant scores every match of Node, a filter's plan, Score: as scoring.Constant scores
// its searcher's matches (a float32 boost held in a double).
type Constant struct {
	Node  Node
	Score float64
}

// Union matches the documents any of Subs matches, without scores: their bits or-ed.
type Union struct{ Subs []Node }

// All matches every document of the index: match_all in a filter, such as the one a bool
// of only must_not clauses excludes from.
type All struct{}

type constEval struct {
	inner evaluator
	score float64
}

func (c *Constant) open(s *segment) evaluator {
	return &constEval{inner: c.Node.open(s), score: c.Score}
}

func (e *constEval) eval(base uint32, b *block) {
	e.inner.eval(base, b)
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			b.score[w*64+t] = e.score
		}
	}
}

func (e *constEval) release() { e.inner.release() }

type unionEval struct {
	subs []evaluator
	tmp  *block
}

func (u *Union) open(s *segment) evaluator {
	return &unionEval{subs: openAll(u.Subs, s), tmp: getBlock()}
}

func (e *unionEval) eval(base uint32, b *block) {
	e.subs[0].eval(base, b)
	for _, s := range e.subs[1:] {
		s.eval(base, e.tmp)
		for w := range b.bits {
			b.bits[w] |= e.tmp.bits[w]
		}
	}
}

func (e *unionEval) release() { releaseAll(e.subs, e.tmp) }

type allEval struct{ s *segment }

func (All) open(s *segment) evaluator { return allEval{s: s} }

// eval sets the window's documents below the segment's count, but the deleted ones.
func (e allEval) eval(base uint32, b *block) {
	n := min(uint32(e.s.count)-base, window) // runSegment evaluates bases below the count
	for w := range b.bits {
		switch lo := uint32(w * 64); {
		case lo+64 <= n:
			b.bits[w] = ^uint64(0)
		case lo < n:
			b.bits[w] = 1<<(n-lo) - 1
		default:
			b.bits[w] = 0
		}
	}
	e.s.dropDeleted(base, b)
}

func (allEval) release() {}

// dropDeleted clears the block's bits of the segment's deleted documents; base is a
// multiple of the window, so the block's words are whole words of the deleted set.
func (s *segment) dropDeleted(base uint32, b *block) {
	if s.deleted == nil {
		return
	}
	del := s.deleted[min(int(base/64), len(s.deleted)):]
	for w := range min(len(del), words) {
		b.bits[w] &^= del[w]
	}
}
