package vectors

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aislehq/aisle/internal/engine/vectors/vectorgen"
	"github.com/aislehq/aisle/internal/repo"
)

// generated are n vectors of dims values as text embeddings spread (vectorgen).
func generated(n, dims int, seed uint64) []float32 { return vectorgen.Generated(n, dims, seed) }

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkGraphRecall builds a segment's graph over VECTORS_BENCH_N (100,000) generated
// 512-dimension vectors with ES's defaults (m 16, ef_construction 100, cosine) and
// searches it for k 10 at the default num_candidates (1.5 k = 15, or
// VECTORS_BENCH_NUM_CANDIDATES) as a segment's kNN search does: it reports the recall of
// the 10 found against exact search's 10 (recall@10), the build's seconds and a search's
// time.
func BenchmarkGraphRecall(b *testing.B) {
	const dims, k, queries = 512, 10, 100
	n := envInt("VECTORS_BENCH_N", 100000)
	values := generated(n, dims, 1)
	benchRecall(b, values, generated(queries, dims, 2), dims, k)
}

// esciVectors reads the `vector` of each line of one of ../shared/relevance's USE-lite
// files (512 dimensions), or skips the benchmark when they are not there.
func esciVectors(b *testing.B, name string) []float32 {
	root, err := repo.Root()
	if err != nil {
		b.Skip(err)
	}
	f, err := os.Open(filepath.Join(root, "..", "shared", "relevance", name))
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	var out []float32
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		var line struct{ Vector []float32 }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || len(line.Vector) != 512 {
			b.Fatalf("%s: a line without a 512-dimension vector", name)
		}
		out = append(out, line.Vector...)
	}
	return out
}

// BenchmarkGraphRecallESCI is BenchmarkGraphRecall over the ESCI catalog's 6,764 product
// vectors of Universal Sentence Encoder lite, searched with its 75 development queries'.
func BenchmarkGraphRecallESCI(b *testing.B) {
	const dims, k = 512, 10
	values := esciVectors(b, "esci-use-lite-vectors.jsonl.gz")
	qs := esciVectors(b, "esci-use-lite-queries-dev.jsonl.gz")
	benchRecall(b, values, qs, dims, k)
}

func benchRecall(b *testing.B, values, qs []float32, dims, k int) {
	o := Options{Dims: dims, Similarity: Cosine, Type: "hnsw", M: 16, EfConstruction: 100}
	start := time.Now()
	g := BuildGraph(o, len(values)/o.Dims, rowsOf(values, o.Dims))
	build := time.Since(start)
	var qz *Quantized
	if os.Getenv("VECTORS_BENCH_INT8") != "" {
		qz = Quantize(dims, len(values)/dims, rowsOf(values, dims), 0)
	}
	queries := len(qs) / dims
	want := make([][]int32, queries)
	for i := range want {
		want[i] = exactTop(Cosine, dims, values, qs[i*dims:(i+1)*dims], k)
	}
	numCands := envInt("VECTORS_BENCH_NUM_CANDIDATES", k+k/2)
	b.ResetTimer()
	total := 0.0
	for i := 0; i < b.N; i++ {
		q := i % queries
		got := g.Candidates(Cosine, values, qz, qs[q*dims:(q+1)*dims], numCands, nil)
		total += recall(got[:min(k, len(got))], want[q])
	}
	b.StopTimer()
	b.ReportMetric(total/float64(b.N), "recall@10")
	b.ReportMetric(build.Seconds(), "build-s")
	// The same graph walked with other numbers of candidates, for the trade-off.
	for _, ef := range []int{15, 100, 200} {
		r := 0.0
		for q := 0; q < queries; q++ {
			got := g.Search(Cosine, values, qs[q*dims:(q+1)*dims], ef, nil)
			r += recall(got[:min(k, len(got))], want[q])
		}
		b.ReportMetric(r/float64(queries), fmt.Sprintf("recall@10-walk%d", ef))
	}
}

// BenchmarkDotInt8 is one int8_hnsw comparison of 512 dimensions, as a graph walk makes
// one per node it visits.
func BenchmarkDotInt8(b *testing.B) {
	a, c := make([]int8, 512), make([]int8, 512)
	for i := range a {
		a[i], c[i] = int8(i*7), int8(i*13)
	}
	var s int32
	for i := 0; i < b.N; i++ {
		s += DotInt8(a, c)
	}
	_ = s
}

// threadCPU is the CPU time of the calling thread: paired with runtime.LockOSThread, one
// search's own cost, where on a shared machine its wall time is mostly waiting for a core.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// BenchmarkWalkOrScan searches segments of the sizes a 100,000-record catalog is left in
// between merges (VECTORS_BENCH_SIZES; generated 512-dimension vectors, int8_hnsw's codes,
// cosine) for a hybrid search's 200 candidates by a graph walk and by a scan of every
// code, the two in turn for each query so that both see the same load: the CPU of each
// (walk_us and scan_us, the thread's) and their ratio at each size are what
// ScanCheaper's rule is drawn from. It reports recall@10 of both against exact search.
func BenchmarkWalkOrScan(b *testing.B) {
	const dims, k, numCands, queries = 512, 10, 200, 50
	sizes := []int{1500, 3000, 6000, 12000, 24000}
	if s := os.Getenv("VECTORS_BENCH_SIZES"); s != "" {
		sizes = sizes[:0]
		for _, f := range strings.Split(s, ",") {
			n, err := strconv.Atoi(f)
			if err != nil {
				b.Fatal(err)
			}
			sizes = append(sizes, n)
		}
	}
	qs := generated(queries, dims, 2)
	for _, n := range sizes {
		values := generated(n, dims, 1)
		o := Options{Dims: dims, Similarity: Cosine, Type: "int8_hnsw", M: 16, EfConstruction: 100}
		g := BuildGraph(o, n, rowsOf(values, dims))
		qz := Quantize(dims, n, rowsOf(values, dims), 0)
		want := make([][]int32, queries)
		for i := range want {
			want[i] = exactTop(Cosine, dims, values, qs[i*dims:(i+1)*dims], k)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var walkCPU, scanCPU time.Duration
			var walkRecall, scanRecall float64
			for i := 0; i < b.N; i++ {
				q := qs[i%queries*dims : (i%queries+1)*dims]
				t := threadCPU()
				got := g.Candidates(Cosine, values, qz, q, numCands, nil)
				walkCPU += threadCPU() - t
				walkRecall += recall(got[:min(k, len(got))], want[i%queries])
				t = threadCPU()
				got = qz.Scan(Cosine, values, q, numCands, nil)
				scanCPU += threadCPU() - t
				scanRecall += recall(got[:min(k, len(got))], want[i%queries])
			}
			b.ReportMetric(float64(walkCPU.Microseconds())/float64(b.N), "walk_us")
			b.ReportMetric(float64(scanCPU.Microseconds())/float64(b.N), "scan_us")
			b.ReportMetric(float64(scanCPU)/float64(walkCPU), "scan/walk")
			b.ReportMetric(walkRecall/float64(b.N), "walk_recall@10")
			b.ReportMetric(scanRecall/float64(b.N), "scan_recall@10")
		})
	}
}
