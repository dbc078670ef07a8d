package vectors

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// clustered are n vectors of dims values around 1,000 centres (each value its centre's
// plus a normal deviation of 0.2), from a fixed seed: text embeddings gather so, where
// uniform random vectors, which no index can search well, do not.
func clustered(n, dims int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 11))
	centres := make([]float32, 1000*dims)
	for i := range centres {
		centres[i] = rng.Float32()*2 - 1
	}
	out := make([]float32, n*dims)
	for i := 0; i < n; i++ {
		c := centres[rng.IntN(1000)*dims:]
		for j := 0; j < dims; j++ {
			out[i*dims+j] = c[j] + float32(rng.NormFloat64()*0.2)
		}
	}
	return out
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkGraphRecall builds a segment's graph over VECTORS_BENCH_N (100,000) generated
// 512-dimension vectors with ES's defaults (m 16, ef_construction 100, cosine) and
// searches it for k 10 at the default num_candidates (1.5 k = 15): it reports the recall
// of the 10 found against exact search's 10 (recall@10), the build's seconds and a
// search's time.
func BenchmarkGraphRecall(b *testing.B) {
	const dims, k, queries = 512, 10, 100
	n := envInt("VECTORS_BENCH_N", 100000)
	values := clustered(n, dims, 1)
	o := Options{Dims: dims, Similarity: Cosine, Type: "hnsw", M: 16, EfConstruction: 100}
	start := time.Now()
	g := BuildGraph(o, values)
	build := time.Since(start)
	qs := clustered(queries, dims, 2)
	want := make([][]int32, queries)
	for i := range want {
		want[i] = exactTop(Cosine, dims, values, qs[i*dims:(i+1)*dims], k)
	}
	numCands := envInt("VECTORS_BENCH_NUM_CANDIDATES", 15)
	b.ResetTimer()
	total, searched := 0.0, 0
	for i := 0; i < b.N; i++ {
		q := i % queries
		got := g.Search(Cosine, values, qs[q*dims:(q+1)*dims], numCands, nil)
		total += recall(got[:min(k, len(got))], want[q])
		searched++
	}
	b.ReportMetric(total/float64(searched), "recall@10")
	b.ReportMetric(build.Seconds(), "build-s")
}
