package zap_test

import (
	"path/filepath"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/zap"
)

func TestZap(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "aisle-zap segment format")
}

const textOpts = index.IndexField | index.IncludeTermVectors

// occurrence is what a search reads of one location.
type occurrence struct {
	Doc   uint64
	Field string
	Pos   uint64
}

var plugin = &zap.ZapPlugin{}

var _ = Describe("The segment format's locations", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("keep each occurrence's position and field, in a new segment and after a merge", func() {
		a := persisted(dir, "a.zap", analyzed("a", "title", "red shoe red", nil))
		b := persisted(dir, "b.zap", analyzed("b", "title", "blue shoe", nil), analyzed("c", "body", "a red red red coat", nil))
		Expect(occurrences(a, "title", "red")).To(Equal([]occurrence{{0, "title", 1}, {0, "title", 3}}))
		Expect(occurrences(b, "body", "red")).To(Equal([]occurrence{{1, "body", 2}, {1, "body", 3}, {1, "body", 4}}))

		merged := filepath.Join(dir, "merged.zap")
		_, _, err := plugin.Merge([]segment.Segment{a, b}, []*roaring.Bitmap{nil, nil}, merged, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		m, err := plugin.Open(merged)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(m.Close)
		Expect(occurrences(m, "title", "red")).To(Equal([]occurrence{{0, "title", 1}, {0, "title", 3}}))
		Expect(occurrences(m, "title", "shoe")).To(Equal([]occurrence{{0, "title", 2}, {1, "title", 2}}))
		Expect(occurrences(m, "body", "red")).To(Equal([]occurrence{{2, "body", 2}, {2, "body", 3}, {2, "body", 4}}))
	})

	It("keep the positions of the documents left after a merge drops some", func() {
		s := persisted(dir, "s.zap", analyzed("a", "title", "red shoe", nil), analyzed("b", "title", "old red red shoe", nil))
		merged := filepath.Join(dir, "merged.zap")
		_, _, err := plugin.Merge([]segment.Segment{s}, []*roaring.Bitmap{roaring.BitmapOf(0)}, merged, nil, nil)
		Expect(err).NotTo(HaveOccurred())
		m, err := plugin.Open(merged)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(m.Close)
		Expect(occurrences(m, "title", "red")).To(Equal([]occurrence{{0, "title", 2}, {0, "title", 3}}))
	})

	It("refuse a field with array positions, which they cannot hold", func() {
		_, _, err := plugin.New([]index.Document{analyzed("a", "tags", "red shoe", []uint64{1})})
		Expect(err).To(MatchError(ContainSubstring("without array positions")))
	})

	It("are skipped by a search that reads no locations", func() {
		s := persisted(dir, "s.zap", analyzed("a", "title", "red red red shoe", nil), analyzed("b", "title", "shoe red", nil))
		pl := postings(s, "title", "red")
		it := pl.Iterator(true, false, false, nil)
		var freqs []uint64
		for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
			Expect(err).NotTo(HaveOccurred())
			freqs = append(freqs, p.Frequency())
		}
		Expect(freqs).To(Equal([]uint64{3, 1}))
	})
})

// analyzed is one document with a text field analyzed by bleve's standard analyzer, as
// scorch analyzes a batch before it builds a segment.
func analyzed(id, field, text string, arrayPositions []uint64) index.Document {
	a, err := registry.NewCache().AnalyzerNamed(standard.Name)
	Expect(err).NotTo(HaveOccurred())
	d := document.NewDocument(id)
	d.AddIDField()
	d.AddField(document.NewTextFieldCustom(field, arrayPositions, []byte(text), textOpts, a))
	d.VisitFields(func(f index.Field) { f.Analyze() })
	return d
}

// persisted builds a segment of docs and opens it from a file, as scorch does.
func persisted(dir, name string, docs ...index.Document) segment.Segment {
	sb, _, err := plugin.New(docs)
	Expect(err).NotTo(HaveOccurred())
	path := filepath.Join(dir, name)
	Expect(zap.PersistSegmentBase(sb.(*zap.SegmentBase), path)).To(Succeed())
	s, err := plugin.Open(path)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(s.Close)
	return s
}

func postings(s segment.Segment, field, term string) segment.PostingsList {
	dict, err := s.Dictionary(field)
	Expect(err).NotTo(HaveOccurred())
	pl, err := dict.PostingsList([]byte(term), nil, nil)
	Expect(err).NotTo(HaveOccurred())
	return pl
}

func occurrences(s segment.Segment, field, term string) []occurrence {
	var out []occurrence
	it := postings(s, field, term).Iterator(true, true, true, nil)
	for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Frequency()).To(BeEquivalentTo(len(p.Locations())))
		for _, l := range p.Locations() {
			out = append(out, occurrence{p.Number(), l.Field(), l.Pos()})
		}
	}
	return out
}
