package zap_test

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/standard"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A new segment's postings", func() {
	// A document with two fields of one name (the values of an array) has one posting
	// per term, its frequencies merged and its lengths summed, as zapx counts them.
	It("count a term once per document, with a field's values together", func() {
		a, err := registry.NewCache().AnalyzerNamed(standard.Name)
		Expect(err).NotTo(HaveOccurred())
		var docs []index.Document
		var want []posting
		for i := 0; i < 200; i++ {
			d := document.NewDocument(fmt.Sprint(i))
			d.AddIDField()
			d.AddField(document.NewTextFieldCustom("tags", nil, []byte(fmt.Sprintf("red t%d", i)), textOpts, a))
			if i%2 == 0 {
				d.AddField(document.NewTextFieldCustom("tags", nil, []byte("red blue"), textOpts, a))
				want = append(want, posting{uint64(i), 2, 4})
			} else {
				want = append(want, posting{uint64(i), 1, 2})
			}
			d.VisitFields(func(f index.Field) { f.Analyze() })
			docs = append(docs, d)
		}
		s := persisted(GinkgoT().TempDir(), "s.zap", docs...)
		var got []posting
		it := postings(s, "tags", "red").Iterator(true, true, false, nil)
		for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
			Expect(err).NotTo(HaveOccurred())
			got = append(got, posting{p.Number(), p.Frequency(), p.(rawNorm).NormUint64()})
		}
		Expect(got).To(Equal(want))
		Expect(occurrences(s, "tags", "t7")).To(HaveLen(1))
	})
})
