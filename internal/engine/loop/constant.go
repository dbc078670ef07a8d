package loop

// Constant matches Node's documents, each scored Score: constant_score, as
// scoring.Constant scores it.
type Constant struct {
	Node  Node
	Score float64
}

type constEval struct {
	inner evaluator
	score float64
}

func (c *Constant) open(s *segment) evaluator {
	return &constEval{inner: c.Node.open(s), score: c.Score}
}

func (e *constEval) eval(base uint32, b *block) {
	e.inner.eval(base, b)
	b.each(func(j uint32) { b.score[j] = e.score })
}

func (e *constEval) release() { e.inner.release() }
