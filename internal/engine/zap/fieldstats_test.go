package zap_test

import (
	"path/filepath"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/fieldstats"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// fieldStats is what a segment holds of one field's statistics and norms.
type fieldStats struct {
	Totals fieldstats.Totals
	Norms  []byte
	Found  bool
}

var _ = Describe("A segment's stored field statistics and norms", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("are what a new segment's postings sum to, field by field", func() {
		docs := catalogDocs()
		for _, s := range []segment.Segment{built(docs), persisted(dir, "s.zap", docs...)} {
			for _, field := range s.Fields() {
				Expect(stored(s, field)).To(Equal(summed(s, field)), field)
			}
		}
	})

	It("are what the postings left after a merge sum to, without the documents it drops", func() {
		docs := catalogDocs()
		a := persisted(dir, "a.zap", docs[:1200]...)
		b := persisted(dir, "b.zap", docs[1200:]...)
		drops := []*roaring.Bitmap{roaring.New(), roaring.New()}
		for doc := uint32(0); doc < 1300; doc += 3 {
			drops[0].Add(doc % 1200)
			drops[1].Add(doc)
		}
		m := merged(dir, []segment.Segment{a, b}, drops)
		Expect(m.Count()).To(Equal(uint64(2500 - drops[0].GetCardinality() - drops[1].GetCardinality())))
		for _, field := range m.Fields() {
			got := stored(m, field)
			Expect(got).To(Equal(summed(m, field)), field)
			Expect(got.Totals.DocCount).To(BeNumerically("<", stored(a, field).Totals.DocCount+stored(b, field).Totals.DocCount), field)
		}
	})

	It("are missing from a segment written before they were stored, whose postings still sum to them", func() {
		// testdata/v1-without-stats.zap is the first 40 of catalogDocs written by the
		// format at d3a65ed, before this section existed.
		old, err := plugin.Open(filepath.Join("testdata", "v1-without-stats.zap"))
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(old.Close)
		now := built(catalogDocs()[:40])
		Expect(old.Fields()).To(Equal(now.Fields()))
		for _, field := range old.Fields() {
			Expect(stored(old, field).Found).To(BeFalse(), field)
			Expect(summed(old, field)).To(Equal(stored(now, field)), field)
		}
	})
})

func built(docs []index.Document) segment.Segment {
	s, _, err := plugin.New(docs)
	Expect(err).NotTo(HaveOccurred())
	return s
}

func merged(dir string, segs []segment.Segment, drops []*roaring.Bitmap) segment.Segment {
	path := filepath.Join(dir, "merged.zap")
	_, _, err := plugin.Merge(segs, drops, path, nil, nil)
	Expect(err).NotTo(HaveOccurred())
	m, err := plugin.Open(path)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(m.Close)
	return m
}

// stored reads a field's statistics as the segment stores them.
func stored(s segment.Segment, field string) fieldStats {
	dict, err := s.Dictionary(field)
	Expect(err).NotTo(HaveOccurred())
	t, norms, found, err := dict.(*zap.Dictionary).StoredFieldStats()
	Expect(err).NotTo(HaveOccurred())
	return fieldStats{t, norms, found}
}

// summed sums a field's statistics from every posting of the segment, as the engine does
// for segments without them; a field without postings stores nothing.
func summed(s segment.Segment, field string) fieldStats {
	dict, err := s.Dictionary(field)
	Expect(err).NotTo(HaveOccurred())
	var acc fieldstats.Acc
	acc.Reset(int(s.Count()))
	Expect(dict.(*zap.Dictionary).VisitFreqNorms(acc.Add)).To(Succeed())
	if acc.DocCount == 0 {
		return fieldStats{}
	}
	return fieldStats{acc.Totals, acc.Norms, true}
}
