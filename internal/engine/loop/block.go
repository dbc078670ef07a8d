package loop

import (
	"math/bits"
	"sync"
)

// window is how many consecutive documents a node evaluates at a time, as Lucene's
// BooleanScorer does: each node fills a block of the window's matches and scores from
// its clauses' blocks, in loops over arrays rather than a call per clause and document.
const window = 2048

const words = window / 64

// block is a node's matches in one window (a bit per document, from the window's first)
// and their scores (set where a bit is).
type block struct {
	bits  [words]uint64
	score [window]float64
}

var blocks = sync.Pool{New: func() any { return new(block) }}

func getBlock() *block { return blocks.Get().(*block) }

func (b *block) clear() { b.bits = [words]uint64{} }

func (b *block) set(i uint32)      { b.bits[i>>6] |= 1 << (i & 63) }
func (b *block) has(i uint32) bool { return b.bits[i>>6]&(1<<(i&63)) != 0 }

func (b *block) empty() bool {
	for _, w := range b.bits {
		if w != 0 {
			return false
		}
	}
	return true
}

// each calls fn with every document of the block, in order.
func (b *block) each(fn func(i uint32)) {
	for w, word := range b.bits {
		for word != 0 {
			t := bits.TrailingZeros64(word)
			fn(uint32(w*64 + t))
			word &= word - 1
		}
	}
}

// evaluator is a node on one segment: eval fills b with its matches and scores among
// the documents [base, base+window); bases only grow.
type evaluator interface {
	eval(base uint32, b *block)
	release()
}
