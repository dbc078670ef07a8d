package knn

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A segment's way to its candidates", func() {
	int8hnsw := func(vectors int) segmentShape {
		return segmentShape{graph: true, quantized: true, vectors: vectors, accepted: vectors, numCands: 200}
	}
	filtered := func(s segmentShape, accepted int) segmentShape {
		s.filtered, s.accepted = true, accepted
		return s
	}
	DescribeTable("is the cheapest that finds what a walk would",
		func(s segmentShape, want way) { Expect(chooseWay(s)).To(Equal(want)) },
		Entry("no graph: exact", segmentShape{vectors: 50000, accepted: 50000, numCands: 200}, exactWay),
		Entry("asked for exact", func() segmentShape { s := int8hnsw(50000); s.exact = true; return s }(), exactWay),
		Entry("no more vectors than a walk keeps: exact", int8hnsw(200), exactWay),
		Entry("a filter letting through no more than the candidates: exact", filtered(int8hnsw(50000), 200), exactWay),
		Entry("a small int8 segment: a scan", int8hnsw(2500), scanWay),
		Entry("a filter leaving a large segment's few thousand: a scan", filtered(int8hnsw(27500), 3000), scanWay),
		Entry("a large int8 segment: a walk", int8hnsw(27500), walkWay),
		Entry("a small float segment (no codes to scan): a walk",
			segmentShape{graph: true, vectors: 2500, accepted: 2500, numCands: 200}, walkWay),
	)
})
