package zap_test

import (
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/vectors"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// vectorField is a dense vector as the engine's mapper gives it to a segment.
type vectorField struct {
	document.TextField
	v []float32
	o vectors.Options
}

func (f *vectorField) DenseVector() []float32         { return f.v }
func (f *vectorField) VectorOptions() vectors.Options { return f.o }
func (f *vectorField) Analyze()                       {}

// vectorDocs are n documents whose field emb holds [1, 1, 1, from+i], indexed as typ;
// every third has no vector.
func vectorDocs(from, n int, typ string) []index.Document {
	o := vectors.Options{Dims: 4, Type: typ, M: 8, EfConstruction: 50, Indexed: true, Similarity: vectors.L2Norm}
	docs := make([]index.Document, 0, n)
	for i := 0; i < n; i++ {
		d := document.NewDocument(fmt.Sprint(from + i))
		d.AddIDField()
		d.AddField(document.NewTextFieldWithIndexingOptions("name", nil, []byte("x"), keywordOpts))
		if i%3 != 2 {
			d.AddField(&vectorField{TextField: *document.NewTextFieldWithIndexingOptions("emb", nil, nil, 0),
				v: []float32{1, 1, 1, float32(from + i)}, o: o})
		}
		d.VisitFields(func(f index.Field) { f.Analyze() })
		docs = append(docs, d)
	}
	return docs
}

// lastValues are the last dimension of each vector a segment holds, by document.
func lastValues(s segment.Segment) map[uint32]float32 {
	var sb *zap.SegmentBase
	switch x := s.(type) {
	case *zap.Segment:
		sb = &x.SegmentBase
	case *zap.SegmentBase:
		sb = x
	}
	v, err := sb.Vectors("emb")
	Expect(err).NotTo(HaveOccurred())
	Expect(v).NotTo(BeNil())
	out := map[uint32]float32{}
	for i, d := range v.Docs {
		out[d] = v.Vector(i)[3]
	}
	if v.Options.Graph() {
		Expect(v.Graph).NotTo(BeNil())
		Expect(v.Graph.Nodes()).To(Equal(len(v.Docs)))
	}
	Expect(v.Quantized != nil).To(Equal(v.Options.Type == "int8_hnsw"))
	return out
}

var _ = Describe("A segment's dense vectors", func() {
	var dir string
	BeforeEach(func() { dir = GinkgoT().TempDir() })

	It("are kept per document, out of the postings", func() {
		s := built(vectorDocs(0, 6, "hnsw"))
		Expect(lastValues(s)).To(Equal(map[uint32]float32{0: 0, 1: 1, 3: 3, 4: 4}))
		dict, err := s.Dictionary("emb")
		Expect(err).NotTo(HaveOccurred())
		Expect(dict.(*zap.Dictionary).Contains([]byte(""))).To(BeFalse())
	})

	It("survive a merge of segments of two index types, without the documents it drops", func() {
		a, b := built(vectorDocs(0, 6, "flat")), built(vectorDocs(10, 6, "int8_hnsw"))
		drops := []*roaring.Bitmap{roaring.BitmapOf(1), roaring.New()}
		m := merged(dir, []segment.Segment{a, b}, drops)
		// a's documents 0, 2..5 become 0..4 (2 and 5 without vectors); b's follow from 5.
		Expect(lastValues(m)).To(Equal(map[uint32]float32{0: 0, 2: 3, 3: 4, 5: 10, 6: 11, 8: 13, 9: 14}))
	})
})
