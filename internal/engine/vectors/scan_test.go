package vectors

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Scans of int8 codes", func() {
	DescribeTable("find the nearest vectors as exact search does",
		func(sim Similarity, dims int) {
			const n = 3000
			values := randomVectors(n, dims, 1)
			qz, err := DecodeQuantized(Quantize(dims, n, rowsOf(values, dims), 0).Encode(), dims, n)
			Expect(err).NotTo(HaveOccurred())
			Expect(meanRecall(sim, dims, values, 30, func(q []float32) []int32 {
				got := qz.Scan(sim, values, q, 15, nil)
				Expect(got).To(HaveLen(15))
				return got
			})).To(BeNumerically(">=", 0.99))
		},
		Entry("cosine, 512 (VNNI's whole steps)", Cosine, 512), Entry("dot_product, 70 (a step and a tail)", DotProduct, 70),
		Entry("l2_norm, 16", L2Norm, 16), Entry("max_inner_product, 96", MaxInnerProduct, 96))

	It("keeps only what a filter accepts, ranked as the floats rank them", func() {
		const n, dims = 400, 32
		values := randomVectors(n, dims, 3)
		qz := Quantize(dims, n, rowsOf(values, dims), 0)
		q := randomVectors(1, dims, 4)
		odd := func(p int32) bool { return p%2 == 1 }
		// 200 accepted, no more than a scan keeps: all of them, in exact search's order.
		got := qz.Scan(Cosine, values, q, 200, odd)
		Expect(got).To(Equal(Exact(Cosine, dims, values, q, 200, odd)))
		Expect(qz.Scan(Cosine, values, q, 5, odd)).To(Equal(got[:5]))
	})

	DescribeTable("are chosen over a walk up to 40 vectors a candidate",
		func(count, numCands int, want bool) {
			Expect(ScanCheaper(count, numCands)).To(Equal(want))
		},
		Entry("a segment of 1,500 at a hybrid search's 200", 1500, 200, true),
		Entry("8,000 at 200: the crossing", 8000, 200, true),
		Entry("8,001 at 200", 8001, 200, false),
		Entry("27,500 at 200", 27500, 200, false),
		Entry("15 candidates walk 200 as well", 8000, 15, true),
		Entry("1,000 candidates: 40,000", 40000, 1000, true),
		Entry("1,000 candidates: 40,001", 40001, 1000, false),
	)
})
