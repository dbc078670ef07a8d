package knn

import (
	"github.com/RoaringBitmap/roaring/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A kNN filter on a segment", func() {
	// The reader's second segment: 1,000 documents from 500; the filter passes every
	// third document of the reader, and documents 10 to 19 of the segment are deleted.
	const offset, count = 500, 1000
	inReader := func(d uint64) bool { return d%3 == 0 }
	bitmap := roaring.New()
	for d := uint64(0); d < offset+count+500; d++ {
		if inReader(d) {
			bitmap.Add(uint32(d))
		}
	}
	deleted := roaring.New()
	deleted.AddRange(10, 20)
	byBitmap := segmentFilter{req: Request{Filter: bitmap}, seg: 1, offset: offset, deleted: deleted}
	byCheck := segmentFilter{req: Request{Check: func(seg int, d uint64) bool {
		Expect(seg).To(Equal(1))
		return inReader(offset + d)
	}}, seg: 1, offset: offset, deleted: deleted}

	It("passes the same documents from a check as from the documents found", func() {
		for d := uint32(0); d < count; d++ {
			Expect(byCheck.passes(d)).To(Equal(byBitmap.passes(d)), "document %d", d)
		}
	})

	It("counts a check's documents as the found ones are counted, the deleted left out", func() {
		// The bitmap, found by bleve's searchers, would hold no deleted document.
		found := roaring.AndNot(bitmap, roaring.BitmapOf(offset+10, offset+11, offset+12, offset+13, offset+14, offset+15, offset+16, offset+17, offset+18, offset+19))
		byFound := segmentFilter{req: Request{Filter: found}, seg: 1, offset: offset, deleted: deleted}
		Expect(byCheck.count(count, count)).To(Equal(byFound.count(count, count)))
		Expect(byCheck.count(count, count)).To(BeNumerically("==", 329)) // 333 of 500-1,499, 4 of them deleted
	})

	It("stops counting a check's documents once more than the way of search needs", func() {
		Expect(byCheck.count(count, 99)).To(BeNumerically("==", 100))
	})

	It("passes the same documents after counting, from the bits counted and past them", func() {
		f := byCheck
		f.count(count, 99) // checks about a third of the segment
		Expect(f.checked).To(BeNumerically(">", 0))
		Expect(f.checked).To(BeNumerically("<", count))
		for d := uint32(0); d < count; d++ {
			Expect(f.passes(d)).To(Equal(byBitmap.passes(d)), "document %d", d)
		}
	})
})
