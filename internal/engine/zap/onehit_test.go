package zap_test

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

const keywordOpts = index.IndexField | index.DocValues

var _ = Describe("A new segment's terms of one document", func() {
	// A unique keyword (an id, a SKU, a price) is written as a 1-hit value in the term
	// dictionary; it must read back as the posting it was, in the postings and in the
	// doc values, beside terms shared by several documents.
	It("read back as they were indexed", func() {
		var docs []index.Document
		var want []posting
		for i := 0; i < 300; i++ {
			d := document.NewDocument(fmt.Sprint(i))
			d.AddIDField()
			d.AddField(document.NewTextFieldWithIndexingOptions("sku", nil, []byte(fmt.Sprintf("SKU-%04d", i)), keywordOpts))
			d.AddField(document.NewTextFieldWithIndexingOptions("brand", nil, []byte(fmt.Sprintf("b%d", i%7)), keywordOpts))
			d.VisitFields(func(f index.Field) { f.Analyze() })
			docs = append(docs, d)
			want = append(want, posting{uint64(i), 1, 1})
		}
		s := persisted(GinkgoT().TempDir(), "s.zap", docs...)
		dict, err := s.Dictionary("sku")
		Expect(err).NotTo(HaveOccurred())
		Expect(iterated(dict)).To(Equal(want))
		brands, err := s.Dictionary("brand")
		Expect(err).NotTo(HaveOccurred())
		Expect(iterated(brands)).To(HaveLen(300))

		dv := s.(segment.DocValueVisitable)
		for _, doc := range []uint64{0, 42, 299} {
			var got []string
			_, err := dv.VisitDocValues(doc, []string{"sku", "brand"}, func(field string, term []byte) {
				got = append(got, field+"="+string(term))
			}, nil)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(ConsistOf(fmt.Sprintf("sku=SKU-%04d", doc), fmt.Sprintf("brand=b%d", doc%7)))
		}
	})
})
