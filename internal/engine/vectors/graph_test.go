package vectors

import (
	"bytes"
	"math/rand/v2"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// randomVectors are n vectors of dims uniform values in [-1, 1), from a fixed seed.
func randomVectors(n, dims int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]float32, n*dims)
	for i := range out {
		out[i] = rng.Float32()*2 - 1
	}
	return out
}

// exactTop is the k places closest to q by comparing every vector.
func exactTop(sim Similarity, dims int, values, q []float32, k int) []int32 {
	n := len(values) / dims
	places := make([]int32, n)
	scores := make([]float32, n)
	qn := Magnitude(q)
	for i := range places {
		places[i] = int32(i)
		scores[i] = sim.Score(Float, q, values[i*dims:(i+1)*dims], qn)
	}
	sort.Slice(places, func(a, b int) bool { return scores[places[a]] > scores[places[b]] })
	return places[:min(k, n)]
}

func recall(got, want []int32) float64 {
	set := map[int32]bool{}
	for _, w := range want {
		set[w] = true
	}
	hit := 0
	for _, g := range got {
		if set[g] {
			hit++
		}
	}
	return float64(hit) / float64(len(want))
}

// meanRecall is the mean recall@10 of search's first 10 against exact search's, over n
// random queries (seed 2).
func meanRecall(sim Similarity, dims int, values []float32, n int, search func(q []float32) []int32) float64 {
	queries := randomVectors(n, dims, 2)
	total := 0.0
	for i := 0; i < n; i++ {
		q := queries[i*dims : (i+1)*dims]
		got := search(q)
		total += recall(got[:min(10, len(got))], exactTop(sim, dims, values, q, 10))
	}
	return total / float64(n)
}

var _ = Describe("HNSW graphs", func() {
	DescribeTable("find the nearest vectors as exact search does, after encoding and decoding",
		func(sim Similarity) {
			const n, dims = 2000, 16
			values := randomVectors(n, dims, 1)
			o := Options{Dims: dims, Similarity: sim, Type: "hnsw", M: 16, EfConstruction: 100}
			g, err := DecodeGraph(BuildGraph(o, len(values)/o.Dims, rowsOf(values, o.Dims)).Encode())
			Expect(err).NotTo(HaveOccurred())
			Expect(g.Nodes()).To(Equal(n))
			queries := randomVectors(50, dims, 2)
			total := 0.0
			for i := 0; i < 50; i++ {
				q := queries[i*dims : (i+1)*dims]
				got := g.Search(sim, values, q, 100, nil)
				total += recall(got[:10], exactTop(sim, dims, values, q, 10))
			}
			Expect(total / 50).To(BeNumerically(">=", 0.95))
		},
		Entry("l2_norm", L2Norm), Entry("cosine", Cosine), Entry("dot_product", DotProduct),
		Entry("max_inner_product", MaxInnerProduct))

	DescribeTable("find them as well from int8 codes, scored again from the floats",
		func(sim Similarity) {
			const n, dims = 2000, 16
			values := randomVectors(n, dims, 1)
			o := Options{Dims: dims, Similarity: sim, Type: "int8_hnsw", M: 16, EfConstruction: 100}
			g := buildFlat(o, values)
			qz, err := DecodeQuantized(Quantize(dims, n, rowsOf(values, dims), 0).Encode(), dims, n)
			Expect(err).NotTo(HaveOccurred())
			Expect(meanRecall(sim, dims, values, 50, func(q []float32) []int32 {
				return g.Candidates(sim, values, qz, q, 10, nil)
			})).To(BeNumerically(">=", 0.95))
		},
		Entry("l2_norm", L2Norm), Entry("cosine", Cosine), Entry("max_inner_product", MaxInnerProduct))

	DescribeTable("find them from int8 codes of as many dimensions as the AVX2 steps take, and a tail",
		func(sim Similarity, dims int) {
			const n = 2000
			values := randomVectors(n, dims, 1)
			o := Options{Dims: dims, Similarity: sim, Type: "int8_hnsw", M: 16, EfConstruction: 100}
			g := buildFlat(o, values)
			qz, err := DecodeQuantized(Quantize(dims, n, rowsOf(values, dims), 0).Encode(), dims, n)
			Expect(err).NotTo(HaveOccurred())
			Expect(meanRecall(sim, dims, values, 30, func(q []float32) []int32 {
				return g.Candidates(sim, values, qz, q, 10, nil)
			})).To(BeNumerically(">=", 0.95))
		},
		Entry("l2_norm, 64", L2Norm, 64), Entry("cosine, 70", Cosine, 70), Entry("dot_product, 96", DotProduct, 96))

	It("writes the codes and the graph's table a chunk at a time as Encode lays them out", func() {
		const n, dims = 1000, 100 // 100 KB of codes, 132 KB of table: more than a chunk each
		values := randomVectors(n, dims, 7)
		var codes bytes.Buffer
		Expect(WriteQuantized(&codes, dims, n, rowsOf(values, dims), 0)).To(Succeed())
		Expect(codes.Bytes()).To(Equal(Quantize(dims, n, rowsOf(values, dims), 0).Encode()))
		Expect(codes.Len()).To(Equal(QuantizedLen(dims, n)))

		g := buildFlat(Options{Dims: dims, Similarity: Cosine, Type: "int8_hnsw", M: 16, EfConstruction: 50}, values)
		var table bytes.Buffer
		Expect(g.WriteLayer0(&table)).To(Succeed())
		Expect(table.Len()).To(Equal(g.Layer0Len()))
		head := g.Head()
		streamed, err := DecodeGraph(append(head, table.Bytes()...))
		Expect(err).NotTo(HaveOccurred())
		Expect(streamed.Search(Cosine, values, values[:dims], 20, nil)).To(Equal(g.Search(Cosine, values, values[:dims], 20, nil)))
	})

	It("links a graph of a single vector and of a few", func() {
		for _, n := range []int{1, 2, 20} {
			values := randomVectors(n, 4, 3)
			o := Options{Dims: 4, Similarity: L2Norm, Type: "hnsw", M: 16, EfConstruction: 100}
			g, err := DecodeGraph(BuildGraph(o, len(values)/o.Dims, rowsOf(values, o.Dims)).Encode())
			Expect(err).NotTo(HaveOccurred())
			Expect(g.Search(L2Norm, values, values[:4], 30, nil)).To(HaveLen(n))
		}
	})

	It("keeps only the nodes a filter accepts", func() {
		values := randomVectors(500, 8, 4)
		o := Options{Dims: 8, Similarity: L2Norm, Type: "hnsw", M: 8, EfConstruction: 50}
		g := BuildGraph(o, len(values)/o.Dims, rowsOf(values, o.Dims))
		got := g.Search(L2Norm, values, values[:8], 20, func(p int32) bool { return p%2 == 1 })
		Expect(got).To(HaveLen(20))
		for _, p := range got {
			Expect(p % 2).To(Equal(int32(1)))
		}
	})

	It("refuses a graph cut short", func() {
		values := randomVectors(50, 4, 5)
		b := buildFlat(Options{Dims: 4, Similarity: L2Norm, Type: "hnsw", M: 4, EfConstruction: 20}, values).Encode()
		_, err := DecodeGraph(b[:len(b)-4])
		Expect(err).To(HaveOccurred())
	})
})

// rowsOf gives the i-th of vectors of dims values laid one after another.
func rowsOf(values []float32, dims int) func(int32) []float32 {
	return func(i int32) []float32 { return values[int(i)*dims : (int(i)+1)*dims] }
}

func buildFlat(o Options, values []float32) *Graph {
	return BuildGraph(o, len(values)/o.Dims, rowsOf(values, o.Dims))
}
