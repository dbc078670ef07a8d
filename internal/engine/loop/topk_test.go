package loop

import (
	"math/rand"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Keeping the best hits", func() {
	DescribeTable("keeps the k best by score, an earlier document first among equal scores, as bleve ranks them",
		func(k, n, distinct int) {
			r := rand.New(rand.NewSource(int64(k*1000 + n)))
			top := NewTopK(k)
			var all []Hit
			for d := 0; d < n; d++ {
				h := Hit{Score: float64(r.Intn(distinct)) / 4, Doc: uint64(d * 3)}
				all = append(all, h)
				top.Add(h.Score, h.Doc)
			}
			sort.SliceStable(all, func(i, j int) bool { return all[i].Score > all[j].Score })
			Expect(top.Best()).To(Equal(all[:min(k, n)]))
		},
		Entry("fewer matches than k", 20, 7, 3),
		Entry("many ties", 20, 500, 4),
		Entry("distinct scores", 10, 500, 100000),
		Entry("one hit", 1, 50, 5),
	)
	It("keeps nothing when no hit is asked for", func() {
		top := NewTopK(0)
		top.Add(1, 1)
		Expect(top.Best()).To(BeEmpty())
	})
})
