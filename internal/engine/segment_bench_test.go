package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/mapper/mappertest"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// BenchmarkSegmentBuild analyzes the shared benchmark's products (5,000 by default,
// AISLE_BENCH_SEGMENT_DOCS) and builds a new segment of them, as a refresh does, and
// reports the CPU it takes (cpu_ms, this process's user and system time, garbage
// collection included): the cost of segment building that the 1M-document profile of
// issue 25 put at half of indexing. Compare two code versions by alternating their test
// binaries: go test -c -o new.test ./internal/engine/ && ./new.test -test.run='^$' -test.bench=SegmentBuild
func BenchmarkSegmentBuild(b *testing.B) {
	docs := builtProducts(b, envInt("AISLE_BENCH_SEGMENT_DOCS", 5000))
	plugin := &zap.ZapPlugin{}
	b.ResetTimer()
	cpu := cpuTime()
	for n := 0; n < b.N; n++ {
		for _, d := range docs {
			mappertest.Analyze(d)
		}
		if _, _, err := plugin.New(docs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu_ms/op")
}

// builtProducts builds n products of the shared benchmark with the engine's mapper, as a
// bulk does.
func builtProducts(b *testing.B, n int) []index.Document {
	var props struct {
		Mappings json.RawMessage `json:"mappings"`
	}
	if err := json.Unmarshal([]byte(benchMapping), &props); err != nil {
		b.Fatal(err)
	}
	builder, err := mappertest.Builder(props.Mappings)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
	docs := make([]index.Document, 0, n)
	for i := 0; i < n; i++ {
		d, err := mappertest.Built(builder, i, productDoc(r, zipf, i))
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSegmentMerge merges ten segments of the shared benchmark's products (2,000
// each by default, AISLE_BENCH_SEGMENT_DOCS; one in a hundred deleted in half of them)
// into one on disk, as scorch's tiered merges do ten at a time, and reports the CPU it
// takes (cpu_ms) and the merged segment's size: merges were over a quarter of indexing
// in the one-million profile of issue 25.
// Compare two code versions as BenchmarkSegmentBuild says.
func BenchmarkSegmentMerge(b *testing.B) {
	n := envInt("AISLE_BENCH_SEGMENT_DOCS", 2000)
	docs := builtProducts(b, 10*n)
	plugin := &zap.ZapPlugin{}
	dir := b.TempDir()
	segs := make([]segment.Segment, 10)
	drops := make([]*roaring.Bitmap, 10)
	for i := range segs {
		part := docs[i*n : (i+1)*n]
		for _, d := range part {
			mappertest.Analyze(d)
		}
		s, _, err := plugin.New(part)
		if err != nil {
			b.Fatal(err)
		}
		segs[i] = s
		if i%2 == 1 {
			drops[i] = roaring.New()
			for doc := uint32(i); doc < uint32(n); doc += 100 {
				drops[i].Add(doc)
			}
		}
	}
	b.ResetTimer()
	cpu := cpuTime()
	var size uint64
	for i := 0; i < b.N; i++ {
		_, n, err := plugin.Merge(segs, drops, filepath.Join(dir, fmt.Sprintf("m%d.zap", i)), nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		size = n
	}
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu_ms/op")
	b.ReportMetric(float64(size), "segment_bytes")
}
