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

	DescribeTable("rank a batch of codes at once exactly as one at a time",
		func(sim Similarity, dims int, accept func(int32) bool) {
			const n = 1100 // four batches and a part
			values := randomVectors(n, dims, 5)
			qz := Quantize(dims, n, rowsOf(values, dims), 0)
			q := randomVectors(1, dims, 6)
			one := &scorer{sim: sim, dims: dims, values: values, qz: qz, qc: qz.query(q)}
			Expect(qz.scanDots(sim, q, 200, accept)).To(Equal(scanTop(one, q, n, 200, accept)))
		},
		Entry("cosine, 512, every vector", Cosine, 512, nil),
		Entry("cosine, 512, a filter", Cosine, 512, func(p int32) bool { return p%3 != 0 }),
		Entry("dot_product, 128", DotProduct, 128, nil),
		Entry("max_inner_product, 70 (no whole VNNI steps: one at a time)", MaxInnerProduct, 70, nil),
		Entry("a filter that takes none", Cosine, 64, func(int32) bool { return false }),
	)

	It("computes a batch's dot products as DotInt8 does", func() {
		const n, dims = 300, 192
		values := randomVectors(n, dims, 7)
		qz := Quantize(dims, n, rowsOf(values, dims), 0)
		qc := qz.query(randomVectors(1, dims, 8))
		rows := []int32{299, 0, 17, 17, 150}
		got := make([]int32, len(rows))
		qz.dotRows(&qc, rows, got)
		for j, row := range rows {
			Expect(got[j]).To(Equal(DotInt8(qc.signed, qz.codesOf(row))))
		}
	})

	It("keep each vector's magnitude, so that its score needs no second pass over it", func() {
		const n, dims = 50, 96
		values := randomVectors(n, dims, 9)
		qz, err := DecodeQuantized(Quantize(dims, n, rowsOf(values, dims), 0).Encode(), dims, n)
		Expect(err).NotTo(HaveOccurred())
		q := randomVectors(1, dims, 10)
		for i := int32(0); i < n; i++ {
			v := values[int(i)*dims : int(i+1)*dims]
			Expect(Cosine.ScoreNormed(Float, q, v, Magnitude(q), qz.Norm(i))).To(Equal(Cosine.Score(Float, q, v, Magnitude(q))))
		}
	})

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
