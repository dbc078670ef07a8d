package zap_test

import (
	"fmt"
	"math/rand"
	"strings"

	index "github.com/blevesearch/bleve_index_api"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/zap"
)

var _ = Describe("Reading a postings list a block at a time", func() {
	// Enough documents that postings lists span several chunks and some terms are
	// encoded as 1-hit.
	It("gives the documents and frequencies the postings iterator gives", func() {
		r := rand.New(rand.NewSource(5))
		var docs []index.Document
		for i := 0; i < 3000; i++ {
			words := make([]string, 1+r.Intn(12))
			for j := range words {
				words[j] = fmt.Sprintf("w%d", r.Intn(600))
			}
			docs = append(docs, analyzed(fmt.Sprint(i), "body", strings.Join(words, " "), nil))
		}
		s := persisted(GinkgoT().TempDir(), "s.zap", docs...)
		dict, err := s.Dictionary("body")
		Expect(err).NotTo(HaveOccurred())
		var read []posting
		terms := dict.AutomatonIterator(nil, nil, nil)
		for e, err := terms.Next(); e != nil || err != nil; e, err = terms.Next() {
			Expect(err).NotTo(HaveOccurred())
			pl, err := dict.PostingsList([]byte(e.Term), nil, nil)
			Expect(err).NotTo(HaveOccurred())
			b := pl.(*zap.PostingsList).Blocks(true)
			var ds, fs [7]uint32 // a block size that is no divisor of a chunk's
			for n, err := b.Next(ds[:], fs[:]); n > 0 || err != nil; n, err = b.Next(ds[:], fs[:]) {
				Expect(err).NotTo(HaveOccurred())
				for i := range n {
					read = append(read, posting{Doc: uint64(ds[i]), Freq: uint64(fs[i])})
				}
			}
		}
		want := iterated(dict)
		for i := range want {
			want[i].Length = 0 // blocks read no norms
		}
		Expect(read).To(Equal(want))
	})
})
