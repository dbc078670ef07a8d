package zap_test

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/zap"
)

// posting is what the engine's field statistics read of one posting.
type posting struct{ Doc, Freq, Length uint64 }

// rawNorm is a posting's norm bits: the field's length.
type rawNorm interface{ NormUint64() uint64 }

var _ = Describe("Reading a field's frequencies and norms in one pass", func() {
	// Enough documents that postings lists span several chunks and some terms are
	// encoded as 1-hit.
	It("gives what the postings iterator gives", func() {
		r := rand.New(rand.NewSource(3))
		var docs []index.Document
		for i := 0; i < 3000; i++ {
			words := make([]string, 1+r.Intn(12))
			for j := range words {
				words[j] = fmt.Sprintf("w%d", r.Intn(400))
			}
			docs = append(docs, analyzed(fmt.Sprint(i), "body", strings.Join(words, " "), nil))
		}
		s := persisted(GinkgoT().TempDir(), "s.zap", docs...)
		dict, err := s.Dictionary("body")
		Expect(err).NotTo(HaveOccurred())

		var visited []posting
		Expect(dict.(*zap.Dictionary).VisitFreqNorms(func(doc, freq, length uint64) {
			visited = append(visited, posting{doc, freq, length})
		})).To(Succeed())
		Expect(visited).To(Equal(iterated(dict)))
	})
})

// iterated reads every posting of every term through the postings iterator.
func iterated(dict segment.TermDictionary) []posting {
	var out []posting
	terms := dict.AutomatonIterator(nil, nil, nil)
	for e, err := terms.Next(); e != nil || err != nil; e, err = terms.Next() {
		Expect(err).NotTo(HaveOccurred())
		pl, err := dict.PostingsList([]byte(e.Term), roaring.New(), nil)
		Expect(err).NotTo(HaveOccurred())
		it := pl.Iterator(true, true, false, nil)
		for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
			Expect(err).NotTo(HaveOccurred())
			out = append(out, posting{p.Number(), p.Frequency(), p.(rawNorm).NormUint64()})
		}
	}
	return out
}
