// Package columns keeps per-segment columnar doc values (term ordinals per document) beside
// bleve's index. Aggregations and numeric range filters read them with one array lookup
// per document instead of decoding bleve's compressed doc-value chunks or walking the
// precision-step terms of a numeric range.
//
// A column is built once per immutable scorch segment, from the segment's own term
// dictionary and postings, and is cached by segment identity: a refresh or merge brings
// new segments whose columns are built on first use; the columns of segments merged away
// age out of the cache.
package columns

import (
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// View is one point-in-time reader's segments with the global doc-number offset of each,
// computed as scorch computes them (the running sum of the segments' full doc counts).
type View struct {
	segs    []segment.Segment
	offsets []uint64
	deleted []*roaring.Bitmap // per segment, nil when none
	total   uint64
}

// ViewOf returns the view of a scorch reader; ok is false for any other kind of reader.
func ViewOf(r index.IndexReader) (*View, bool) {
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return nil, false
	}
	ss := snap.Segments()
	v := &View{segs: make([]segment.Segment, len(ss)), offsets: make([]uint64, len(ss)), deleted: make([]*roaring.Bitmap, len(ss))}
	for i, s := range ss {
		v.segs[i] = s.Segment()
		v.offsets[i] = v.total
		v.total += s.Segment().Count()
		if d := s.Deleted(); d != nil && !d.IsEmpty() {
			v.deleted[i] = d
		}
	}
	return v, true
}

// MaxDoc is how many documents the view's segments hold, deleted ones included (what
// Lucene's maxDoc counts).
func (v *View) MaxDoc() uint64 { return v.total }

// Segments is the number of segments in the view.
func (v *View) Segments() int { return len(v.segs) }

// Locate maps a bleve internal id to its segment and segment-local document number.
// hint is the segment of the previous lookup: search results come in doc-number order,
// so it is usually right and saves the binary search.
func (v *View) Locate(id index.IndexInternalID, hint int) (seg int, local uint64) {
	n := id.Value()
	if hint >= 0 && hint < len(v.offsets) && n >= v.offsets[hint] &&
		(hint+1 == len(v.offsets) || n < v.offsets[hint+1]) {
		return hint, n - v.offsets[hint]
	}
	seg = sort.Search(len(v.offsets), func(i int) bool { return v.offsets[i] > n }) - 1
	return seg, n - v.offsets[seg]
}

// EachLive calls fn for each live document of the view, in order: its segment, its
// number in the segment and in the reader.
func (v *View) EachLive(fn func(seg int, local, id uint64) error) error {
	for seg, s := range v.segs {
		del := v.deleted[seg]
		for local := range s.Count() {
			if del != nil && del.Contains(uint32(local)) {
				continue
			}
			if err := fn(seg, local, v.offsets[seg]+local); err != nil {
				return err
			}
		}
	}
	return nil
}

// Offset is the reader's number of the first document of segment seg.
func (v *View) Offset(seg int) uint64 { return v.offsets[seg] }
