package loop

import (
	"math/bits"
	"sync"
)

// Each evaluator here scores as the scoring package's searcher of the same name does
// (scoring.Disjunction, Conjunction, Optional): the same float32 and float64 steps, its
// clauses taken in the same order.

type disjEval struct {
	subs   []evaluator
	tmp    *block
	min    int
	dismax bool
	tie    float32
	aux    *aux // dis_max: the best scores; with a minimum above one: the counts
}

// aux are a disjunction's per-document figures beside its block.
type aux struct {
	best  [window]float32 // dis_max: the best clause's score of each document
	count [window]uint8   // how many clauses match each document
}

var auxes = sync.Pool{New: func() any { return new(aux) }}

func (d *Disjunction) open(s *segment) evaluator {
	e := &disjEval{subs: openAll(d.Subs, s), tmp: getBlock(), min: max(d.Min, 1), dismax: d.DisMax, tie: d.Tie}
	if e.dismax || e.min > 1 {
		e.aux = auxes.Get().(*aux)
	}
	return e
}

func openAll(nodes []Node, s *segment) []evaluator {
	out := make([]evaluator, len(nodes))
	for i, n := range nodes {
		out[i] = n.open(s)
	}
	return out
}

func (e *disjEval) eval(base uint32, b *block) {
	b.clear()
	if e.min > 1 {
		e.aux.count = [window]uint8{}
	}
	for _, s := range e.subs {
		s.eval(base, e.tmp)
		e.add(b)
		if e.min > 1 {
			e.tmp.each(func(j uint32) { e.aux.count[j]++ })
		}
	}
	e.finish(b)
}

// add takes a clause's scores (in e.tmp) into b: their sum in a double, as
// DisjunctionSumScorer, or for dis_max the best score and the sum of the others, as
// DisjunctionMaxScorer.
func (e *disjEval) add(b *block) {
	for w, word := range e.tmp.bits {
		fresh := word &^ b.bits[w]
		b.bits[w] |= word
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			j := w*64 + t
			if fresh&(1<<t) != 0 {
				b.score[j] = 0
			}
			if e.dismax {
				e.addMax(b, j, fresh&(1<<t) != 0)
			} else {
				b.score[j] += e.tmp.score[j]
			}
		}
	}
}

func (e *disjEval) addMax(b *block, j int, fresh bool) {
	best := &e.aux.best
	if fresh {
		best[j] = 0
	}
	if s := float32(e.tmp.score[j]); s >= best[j] {
		b.score[j] += float64(best[j])
		best[j] = s
	} else {
		b.score[j] += float64(s)
	}
}

// finish drops the documents too few clauses match and rounds the scores: the sum, or
// the best score plus tie times the others (b.score held their sum).
func (e *disjEval) finish(b *block) {
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			word &= word - 1
			j := w*64 + t
			switch {
			case e.min > 1 && int(e.aux.count[j]) < e.min:
				b.bits[w] &^= 1 << t
			case e.dismax:
				b.score[j] = float64(float32(float64(e.aux.best[j]) + b.score[j]*float64(e.tie)))
			default:
				b.score[j] = float64(float32(b.score[j]))
			}
		}
	}
}

func (e *disjEval) release() {
	releaseAll(e.subs, e.tmp)
	if e.aux != nil {
		auxes.Put(e.aux)
	}
}

func releaseAll(subs []evaluator, tmp *block) {
	for _, s := range subs {
		s.release()
	}
	blocks.Put(tmp)
}

type conjEval struct {
	subs    []evaluator
	tmp     *block
	scoring int
}

func (n *Conjunction) open(s *segment) evaluator {
	return &conjEval{subs: openAll(n.Subs, s), tmp: getBlock(), scoring: n.Scoring}
}

func (e *conjEval) eval(base uint32, b *block) {
	e.subs[0].eval(base, b)
	for i, s := range e.subs[1:] {
		if b.empty() {
			return
		}
		s.eval(base, e.tmp)
		for w := range b.bits {
			b.bits[w] &= e.tmp.bits[w]
		}
		if i+1 < e.scoring {
			b.each(func(j uint32) { b.score[j] += e.tmp.score[j] })
		}
	}
	b.each(func(j uint32) {
		if e.scoring == 0 {
			b.score[j] = 0
		} else {
			b.score[j] = float64(float32(b.score[j]))
		}
	})
}

func (e *conjEval) release() { releaseAll(e.subs, e.tmp) }

type optEval struct {
	req, opt evaluator
	tmp      *block
}

func (o *Optional) open(s *segment) evaluator {
	return &optEval{req: o.Req.open(s), opt: o.Opt.open(s), tmp: getBlock()}
}

func (e *optEval) eval(base uint32, b *block) {
	e.req.eval(base, b)
	if b.empty() {
		return
	}
	e.opt.eval(base, e.tmp)
	b.each(func(j uint32) {
		if e.tmp.has(j) {
			b.score[j] = float64(float32(b.score[j]) + float32(e.tmp.score[j]))
		}
	})
}

func (e *optEval) release() { releaseAll([]evaluator{e.req, e.opt}, e.tmp) }
