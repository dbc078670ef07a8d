package loop

import (
	"math/bits"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// segRange is a Range on one segment.
type segRange struct {
	col      *columns.Column
	from, to uint32
}

type filterEval struct {
	inner     evaluator
	ranges    []segRange
	must, not []Check
	seg       int
	excl      evaluator // nil when none
	tmp       *block
}

func (f *Filtered) open(s *segment) evaluator {
	e := &filterEval{inner: f.Node.open(s), must: f.Must, not: f.Not, seg: s.index}
	for _, r := range f.Ranges {
		e.ranges = append(e.ranges, segRange{col: r.Cols[s.index], from: r.From[s.index], to: r.To[s.index]})
	}
	if len(f.Excl) > 0 {
		e.excl, e.tmp = (&Disjunction{Subs: f.Excl, Min: 1}).open(s), getBlock()
	}
	return e
}

func (e *filterEval) eval(base uint32, b *block) {
	e.inner.eval(base, b)
	if e.excl != nil && !b.empty() {
		e.excl.eval(base, e.tmp)
		for w := range b.bits {
			b.bits[w] &^= e.tmp.bits[w]
		}
	}
	if len(e.ranges)+len(e.must)+len(e.not) == 0 {
		return
	}
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			if !e.passes(uint64(base) + uint64(w*64+t)) {
				b.bits[w] &^= 1 << t
			}
		}
	}
}

func (e *filterEval) passes(d uint64) bool {
	for _, r := range e.ranges {
		if !r.col.AnyIn(d, r.from, r.to) {
			return false
		}
	}
	for _, ch := range e.must {
		if !ch(e.seg, d) {
			return false
		}
	}
	for _, ch := range e.not {
		if ch(e.seg, d) {
			return false
		}
	}
	return true
}

func (e *filterEval) release() {
	e.inner.release()
	if e.excl != nil {
		releaseAll([]evaluator{e.excl}, e.tmp)
	}
}
