package loop

import (
	"github.com/aislehq/aisle/internal/engine/scoring"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// segment is what the evaluators of one segment share.
type segment struct {
	count   uint64   // documents, deleted ones included
	index   int      // in the reader
	offset  uint64   // the reader's number of its first document
	deleted []uint64 // a bit per deleted document; nil when none
	err     error    // the first error reading postings: the evaluators stop on it
}

func (s *segment) isDeleted(d uint32) bool {
	return s.deleted != nil && s.deleted[d>>6]&(1<<(d&63)) != 0
}

func (s *segment) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// postingsBlock is how many postings a term evaluator reads at a time.
const postingsBlock = 128

type termEval struct {
	s      *segment
	blocks *zap.Blocks
	docs   [postingsBlock]uint32
	freqs  [postingsBlock]uint32
	n, i   int
	done   bool
	bm25   *scoring.BM25
	text   bool
	norms  []byte
}

func (t *Term) open(s *segment) evaluator {
	e := &termEval{s: s, bm25: t.BM25, text: t.Text}
	if t.Text {
		e.norms = t.Norms[s.index]
	}
	zpl, ok := t.Lists[s.index].(*zap.PostingsList)
	if !ok {
		return nothing{} // no such term in the segment (an empty list of another type)
	}
	e.blocks = zpl.Blocks(t.Text)
	return e
}

func (e *termEval) eval(base uint32, b *block) {
	b.clear()
	end := base + window
	for !e.done {
		if e.i == e.n && !e.refill() {
			return
		}
		d := e.docs[e.i]
		if d >= end {
			return
		}
		if d >= base && !e.s.isDeleted(d) {
			b.set(d - base)
			b.score[d-base] = e.score(d)
		}
		e.i++
	}
}

func (e *termEval) refill() bool {
	n, err := e.blocks.Next(e.docs[:], e.freqs[:])
	if err != nil {
		e.s.fail(err)
		n = 0
	}
	e.n, e.i, e.done = n, 0, n == 0
	return n > 0
}

// score is BM25 of the posting at e.i, for document d; as scoring.TermSearcher scores.
func (e *termEval) score(d uint32) float64 {
	if e.bm25 == nil {
		return 0 // a filter's term
	}
	freq, norm := float32(1), byte(1)
	if e.text {
		freq, norm = float32(e.freqs[e.i]), e.norms[d]
	}
	return float64(e.bm25.Score(freq, norm))
}

func (e *termEval) release() {}

// nothing is an evaluator of no document.
type nothing struct{}

func (nothing) eval(_ uint32, b *block) { b.clear() }
func (nothing) release()                {}
func (None) open(*segment) evaluator    { return nothing{} }
