package loop

// Each cursor here computes its score as the scoring package's searcher of the same name
// does (scoring.Disjunction, Conjunction, Optional): the same float32 and float64 steps.

type disjCursor struct {
	subs   []cursor
	min    int
	dismax bool
	tie    float32
	cur    uint32
}

func (d *Disjunction) open(s *segment) cursor {
	c := &disjCursor{subs: openAll(d.Subs, s), min: max(d.Min, 1), dismax: d.DisMax, tie: d.Tie}
	c.find()
	return c
}

func openAll(nodes []Node, s *segment) []cursor {
	out := make([]cursor, len(nodes))
	for i, n := range nodes {
		out[i] = n.open(s)
	}
	return out
}

func (c *disjCursor) doc() uint32 { return c.cur }

// find moves to the first document at least min clauses are on.
func (c *disjCursor) find() {
	for {
		m := uint32(noDoc)
		for _, s := range c.subs {
			m = min(m, s.doc())
		}
		if m == noDoc || c.min == 1 || c.onCount(m) >= c.min {
			c.cur = m
			return
		}
		c.stepFrom(m)
	}
}

func (c *disjCursor) onCount(d uint32) int {
	n := 0
	for _, s := range c.subs {
		if s.doc() == d {
			n++
		}
	}
	return n
}

// stepFrom moves the clauses on document d to their next.
func (c *disjCursor) stepFrom(d uint32) {
	for _, s := range c.subs {
		if s.doc() == d {
			s.next()
		}
	}
}

func (c *disjCursor) next() {
	if c.cur == noDoc {
		return
	}
	c.stepFrom(c.cur)
	c.find()
}

func (c *disjCursor) advance(target uint32) {
	if c.cur >= target {
		return
	}
	for _, s := range c.subs {
		if s.doc() < target {
			s.advance(target)
		}
	}
	c.find()
}

func (c *disjCursor) score() float64 {
	if c.dismax {
		var best float32
		var others float64
		for _, s := range c.subs {
			if s.doc() != c.cur {
				continue
			}
			if v := float32(s.score()); v >= best {
				others += float64(best)
				best = v
			} else {
				others += float64(v)
			}
		}
		return float64(float32(float64(best) + others*float64(c.tie)))
	}
	var sum float64
	for _, s := range c.subs {
		if s.doc() == c.cur {
			sum += s.score()
		}
	}
	return float64(float32(sum))
}

type conjCursor struct {
	subs    []cursor
	scoring int
	cur     uint32
}

func (n *Conjunction) open(s *segment) cursor {
	c := &conjCursor{subs: openAll(n.Subs, s), scoring: n.Scoring}
	c.align()
	return c
}

func (c *conjCursor) doc() uint32 { return c.cur }

// align moves the clauses until all are on one document, or one is done.
func (c *conjCursor) align() {
	for {
		target := uint32(0)
		for _, s := range c.subs {
			target = max(target, s.doc())
		}
		if target == noDoc {
			c.cur = noDoc
			return
		}
		same := true
		for _, s := range c.subs {
			if s.doc() < target {
				s.advance(target)
			}
			same = same && s.doc() == target
		}
		if same {
			c.cur = target
			return
		}
	}
}

func (c *conjCursor) next() {
	if c.cur == noDoc {
		return
	}
	c.subs[0].next()
	c.align()
}

func (c *conjCursor) advance(target uint32) {
	if c.cur >= target {
		return
	}
	c.subs[0].advance(target)
	c.align()
}

func (c *conjCursor) score() float64 {
	if c.scoring == 0 {
		return 0
	}
	var sum float64
	for _, s := range c.subs[:c.scoring] {
		sum += s.score()
	}
	return float64(float32(sum))
}

type optCursor struct{ req, opt cursor }

func (o *Optional) open(s *segment) cursor {
	return &optCursor{req: o.Req.open(s), opt: o.Opt.open(s)}
}

func (c *optCursor) doc() uint32           { return c.req.doc() }
func (c *optCursor) next()                 { c.req.next() }
func (c *optCursor) advance(target uint32) { c.req.advance(target) }

func (c *optCursor) score() float64 {
	s, d := c.req.score(), c.req.doc()
	if c.opt.doc() < d {
		c.opt.advance(d)
	}
	if c.opt.doc() != d {
		return s
	}
	return float64(float32(s) + float32(c.opt.score()))
}
