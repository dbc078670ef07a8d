package loop

type filterEval struct {
	inner     evaluator
	must, not []Check
	seg       int
	excl      evaluator // nil when none
	tmp       *block
}

func (f *Filtered) open(s *segment) evaluator {
	e := &filterEval{inner: f.Node.open(s), must: f.Must, not: f.Not, seg: s.index}
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
	if len(e.must)+len(e.not) == 0 {
		return
	}
	b.each(func(j uint32) {
		if !e.passes(uint64(base + j)) {
			b.bits[j>>6] &^= 1 << (j & 63)
		}
	})
}

func (e *filterEval) passes(d uint64) bool {
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
