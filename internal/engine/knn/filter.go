package knn

import "github.com/RoaringBitmap/roaring/v2"

// segmentFilter is a request's filter on one segment: its documents the filter passes
// and that are not deleted.
type segmentFilter struct {
	req     Request
	seg     int
	offset  uint64 // the reader's number of the segment's first document
	deleted *roaring.Bitmap
	// passed holds a bit for each of the first checked documents, set for those the
	// check passed (count fills it): a scan then asks about each vector once, not twice.
	passed  []uint64
	checked uint64
}

func (f *segmentFilter) filtered() bool { return f.req.Filter != nil || f.req.Check != nil }

// passes reports whether the segment's document doc is searched.
func (f *segmentFilter) passes(doc uint32) bool {
	if f.deleted != nil && f.deleted.Contains(doc) {
		return false
	}
	switch {
	case f.req.Check != nil && uint64(doc) < f.checked:
		return f.passed[doc>>6]&(1<<(doc&63)) != 0
	case f.req.Check != nil:
		return f.req.Check(f.seg, uint64(doc))
	case f.req.Filter != nil:
		return f.req.Filter.Contains(uint32(f.offset + uint64(doc)))
	}
	return true
}

// count is how many of the segment's count documents the filter lets through, counted
// up to more than upTo only: above it the way of search is decided (see
// segmentShape.decidedAbove), and a large segment's documents need not all be checked.
// A bitmap's documents, found without the deleted ones, are counted by rank; a check's
// are checked one by one, the deleted left out as the bitmap leaves them.
func (f *segmentFilter) count(count uint64, upTo int) uint64 {
	if count == 0 {
		return 0
	}
	if f.req.Check == nil {
		return rankIn(f.req.Filter, f.offset, count)
	}
	f.passed = make([]uint64, (count+63)/64)
	var in, d uint64
	for ; d < count && in <= uint64(upTo); d++ {
		if (f.deleted == nil || !f.deleted.Contains(uint32(d))) && f.req.Check(f.seg, d) {
			f.passed[d>>6] |= 1 << (d & 63)
			in++
		}
	}
	f.checked = d
	return in
}

// rankIn is how many of a bitmap's documents fall in the segment of count documents
// from offset in the reader.
func rankIn(filter *roaring.Bitmap, offset, count uint64) uint64 {
	in := filter.Rank(uint32(offset+count-1)) - filter.Rank(uint32(offset)) + 1
	if !filter.Contains(uint32(offset)) {
		in--
	}
	return in
}
