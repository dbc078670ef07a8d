package loop

import (
	"context"
	"math/bits"

	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/zap"
)

// Segments are a reader's segments as the loop runs them, with the reader's number of
// each one's first document (scorch's: the running sum of the segments' counts).
type Segments struct {
	segs    []*segment
	offsets []uint64
}

// SegmentsOf returns the segments of a scorch reader; ok is false for another reader or
// a segment of another format than the engine's (an index an earlier release wrote).
// A refresh's segment is the engine's format before scorch persists it too.
func SegmentsOf(r index.IndexReader) (*Segments, bool) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, false
	}
	ss := snap.Segments()
	out := &Segments{segs: make([]*segment, len(ss)), offsets: make([]uint64, len(ss))}
	var next uint64
	for i, s := range ss {
		switch s.Segment().(type) {
		case *zap.Segment, *zap.SegmentBase: // persisted, or still in memory
		default:
			return nil, false
		}
		count := s.Segment().Count()
		out.segs[i] = &segment{count: count, index: i, offset: next, deleted: deletedBits(s, count)}
		out.offsets[i] = next
		next += count
	}
	return out, true
}

// deletedBits is a bit per document of the segment, set for the deleted ones; nil when
// none is.
func deletedBits(s *scorch.SegmentSnapshot, count uint64) []uint64 {
	del := s.Deleted()
	if del == nil || del.IsEmpty() {
		return nil
	}
	bits := make([]uint64, (count+63)/64+1)
	it := del.Iterator()
	for it.HasNext() {
		d := it.Next()
		bits[d>>6] |= 1 << (d & 63)
	}
	return bits
}

// Offset is the reader's number of segment seg's first document.
func (ss *Segments) Offset(seg int) uint64 { return ss.offsets[seg] }

// Run calls each with every document n matches, segment by segment in document order:
// its segment, its number there and its score.
func (ss *Segments) Run(ctx context.Context, n Node, each func(seg int, local uint32, score float64) error) error {
	for i, s := range ss.segs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := ss.runSegment(i, n, each); err != nil {
			return err
		}
		if s.err != nil {
			return s.err
		}
	}
	return nil
}

// runSegment runs n on segment i a window at a time.
func (ss *Segments) runSegment(i int, n Node, each func(seg int, local uint32, score float64) error) error {
	s := ss.segs[i]
	e, b := n.open(s), getBlock()
	defer func() {
		e.release()
		blocks.Put(b)
	}()
	count := uint32(s.count)
	for base := uint32(0); base < count && s.err == nil; base += window {
		e.eval(base, b)
		for w, word := range b.bits {
			for word != 0 {
				t := bits.TrailingZeros64(word)
				word &= word - 1
				j := uint32(w*64 + t)
				if err := each(i, base+j, b.score[j]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
