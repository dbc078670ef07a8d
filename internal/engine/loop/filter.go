package loop

type filterCursor struct {
	inner     cursor
	must, not []Check
	seg       int
	excl      cursor // nil when none
	cur       uint32
}

func (f *Filtered) open(s *segment) cursor {
	c := &filterCursor{inner: f.Node.open(s), must: f.Must, not: f.Not, seg: s.index}
	if len(f.Excl) > 0 {
		c.excl = (&Disjunction{Subs: f.Excl, Min: 1}).open(s)
	}
	c.skip()
	return c
}

func (c *filterCursor) doc() uint32 { return c.cur }

// skip moves the inner cursor to its first document that passes.
func (c *filterCursor) skip() {
	for d := c.inner.doc(); d != noDoc; d = c.inner.doc() {
		if c.passes(d) {
			c.cur = d
			return
		}
		c.inner.next()
	}
	c.cur = noDoc
}

func (c *filterCursor) passes(d uint32) bool {
	for _, ch := range c.must {
		if !ch(c.seg, uint64(d)) {
			return false
		}
	}
	for _, ch := range c.not {
		if ch(c.seg, uint64(d)) {
			return false
		}
	}
	if c.excl != nil {
		c.excl.advance(d)
		return c.excl.doc() != d
	}
	return true
}

func (c *filterCursor) next() {
	if c.cur == noDoc {
		return
	}
	c.inner.next()
	c.skip()
}

func (c *filterCursor) advance(target uint32) {
	if c.cur >= target {
		return
	}
	c.inner.advance(target)
	c.skip()
}

func (c *filterCursor) score() float64 { return c.inner.score() }
