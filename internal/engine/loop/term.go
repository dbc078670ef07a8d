package loop

import (
	"math"

	"github.com/aislehq/aisle/internal/engine/scoring"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// noDoc is an exhausted cursor's document.
const noDoc = math.MaxUint32

// cursor is a node on one segment, always on a matching document (or noDoc): it starts
// on its first.
type cursor interface {
	doc() uint32
	// next moves to the next match; advance to the first at or after target.
	next()
	advance(target uint32)
	// score is the current document's; call it at most once per document, in order.
	score() float64
}

// segment is what the cursors of one segment share.
type segment struct {
	seg     *zap.Segment
	index   int      // in the reader
	deleted []uint64 // a bit per deleted document; nil when none
	err     error    // the first error reading postings: the cursors stop on it
}

func (s *segment) isDeleted(d uint32) bool {
	return s.deleted != nil && s.deleted[d>>6]&(1<<(d&63)) != 0
}

func (s *segment) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// blockSize is how many postings a term cursor reads at a time.
const blockSize = 128

type termCursor struct {
	s      *segment
	blocks *zap.Blocks
	docs   [blockSize]uint32
	freqs  [blockSize]uint32
	n, i   int
	cur    uint32
	bm25   *scoring.BM25
	text   bool
	norms  []byte
}

func (t *Term) open(s *segment) cursor {
	c := &termCursor{s: s, bm25: t.BM25, text: t.Text}
	if t.Text {
		c.norms = t.Norms[s.index]
	}
	dict, err := s.seg.Dictionary(t.Field)
	if err != nil {
		s.fail(err)
		return exhausted{}
	}
	zd, ok := dict.(*zap.Dictionary)
	if !ok {
		return exhausted{} // a field the segment does not have
	}
	pl, err := zd.PostingsList(t.Term, nil, nil)
	if err != nil {
		s.fail(err)
		return exhausted{}
	}
	zpl, ok := pl.(*zap.PostingsList)
	if !ok {
		return exhausted{}
	}
	c.blocks = zpl.Blocks(t.Text)
	c.i = -1
	c.next()
	return c
}

func (c *termCursor) doc() uint32 { return c.cur }

func (c *termCursor) next() {
	for {
		c.i++
		if c.i >= c.n && !c.refill() {
			c.cur = noDoc
			return
		}
		if d := c.docs[c.i]; !c.s.isDeleted(d) {
			c.cur = d
			return
		}
	}
}

func (c *termCursor) refill() bool {
	n, err := c.blocks.Next(c.docs[:], c.freqs[:])
	if err != nil {
		c.s.fail(err)
		n = 0
	}
	c.n, c.i = n, 0
	return n > 0
}

func (c *termCursor) advance(target uint32) {
	for c.cur < target {
		if c.n > 0 && c.docs[c.n-1] < target {
			c.i = c.n - 1 // the rest of the block is behind target
		}
		c.next()
	}
}

func (c *termCursor) score() float64 {
	freq, norm := float32(1), byte(1)
	if c.text {
		freq, norm = float32(c.freqs[c.i]), c.norms[c.cur]
	}
	return float64(c.bm25.Score(freq, norm))
}

// exhausted is a cursor on no document.
type exhausted struct{}

func (exhausted) doc() uint32     { return noDoc }
func (exhausted) next()           {}
func (exhausted) advance(uint32)  {}
func (exhausted) score() float64  { return 0 }
func (None) open(*segment) cursor { return exhausted{} }
