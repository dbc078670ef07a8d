package zap

import (
	"math"

	"github.com/RoaringBitmap/roaring/v2"
)

// Blocks reads a postings list's documents, and their frequencies when asked, a block at
// a time, deleted documents included, without a PostingsIterator's per-posting
// bookkeeping: the engine's own search loop (internal/engine/loop) scores every posting
// of a query's terms this way. This file is an addition of the fork (see FORK.md); the
// format is unchanged.
type Blocks struct {
	it        roaring.ManyIntIterable
	dec       *chunkedIntDecoder
	chunkSize uint64
	chunk     uint64
	freqs     bool
	// a 1-hit postings list: its one document, until read
	oneHit  bool
	doc1Hit uint64
	done    bool
}

// Blocks returns a block reader of the list; with freqs, Next reads each posting's
// frequency too.
func (p *PostingsList) Blocks(freqs bool) *Blocks {
	b := &Blocks{chunk: math.MaxUint64}
	switch {
	case p.normBits1Hit != 0:
		b.oneHit, b.doc1Hit = true, p.docNum1Hit
	case p.postings == nil || p.postings.IsEmpty():
		b.done = true
	default:
		b.it = p.postings.ManyIterator()
		b.chunkSize = p.chunkSize
		if freqs {
			b.freqs = true
			b.dec = newChunkedIntDecoder(p.sb.mem, p.freqOffset, nil, p.sb.fileReader)
		}
	}
	return b
}

// Next fills docs (and freqs, when the reader reads them; it must be as long as docs)
// with the next postings, and returns how many; 0 when the list is done.
func (b *Blocks) Next(docs, freqs []uint32) (int, error) {
	switch {
	case b.done:
		return 0, nil
	case b.oneHit:
		b.done = true
		docs[0] = uint32(b.doc1Hit)
		if len(freqs) > 0 {
			freqs[0] = 1
		}
		return 1, nil
	}
	n := b.it.NextMany(docs)
	if n == 0 {
		b.done = true
		return 0, nil
	}
	if !b.freqs {
		return n, nil
	}
	if b.chunkSize == 0 {
		return 0, ErrChunkSizeZero
	}
	for i, d := range docs[:n] {
		if c := uint64(d) / b.chunkSize; c != b.chunk {
			if err := b.dec.loadChunk(int(c)); err != nil {
				return 0, err
			}
			b.chunk = c
		}
		freq, _, err := readFreqNorm(b.dec)
		if err != nil {
			return 0, err
		}
		freqs[i] = uint32(freq)
	}
	return n, nil
}
