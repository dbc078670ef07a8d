package searcher

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/engine/store"
)

// BenchmarkLoopPhrases measures the CPU of a catalog search's shape, a must term and
// the proximity clauses (phrases of slops 0, 2 and 8 across two fields, constant scores
// in a dis_max, as internal/searchquery sends them), with the engine's own search loop
// and without it, alternated in one process over the same index of 100,000 records of
// about 1 KB (AISLE_BENCH_DOCS); AISLE_BENCH_ROUNDS rounds of AISLE_BENCH_QUERIES
// searches each way. CPU is this process's (getrusage), garbage collection included.
// Run with:
// go test -run='^$' -bench=LoopPhrases -benchtime=1x -timeout=30m ./internal/engine/searcher/
func BenchmarkLoopPhrases(b *testing.B) {
	ix := benchIndex(b, benchEnv("AISLE_BENCH_DOCS", 100000))
	rounds, queries := benchEnv("AISLE_BENCH_ROUNDS", 5), benchEnv("AISLE_BENCH_QUERIES", 40)
	reqs, proximity := benchRequests(b, queries)
	_, near := benchSearches(b, ix, proximity, false)
	benchSearches(b, ix, reqs, true) // warm-up: columns, norms, statistics
	_, hits := benchSearches(b, ix, reqs, false)
	b.Logf("%d searches a round each way; %d hits a search (at most 10,000 counted), %d documents matching its proximity clauses",
		len(reqs), hits/len(reqs), near/len(reqs))
	var on, off time.Duration
	for round := 0; round < rounds; round++ {
		offCPU, _ := benchSearches(b, ix, reqs, false)
		onCPU, _ := benchSearches(b, ix, reqs, true)
		b.Logf("round %d: loop off %.2f ms, on %.2f ms of CPU a search", round,
			perSearch(offCPU, len(reqs)), perSearch(onCPU, len(reqs)))
		on, off = on+onCPU, off+offCPU
	}
	b.ReportMetric(perSearch(off, rounds*len(reqs)), "off_cpu_ms/search")
	b.ReportMetric(perSearch(on, rounds*len(reqs)), "on_cpu_ms/search")
	b.ReportMetric(float64(on)/float64(off), "on/off")
}

func perSearch(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }

// benchSearches runs each request with the loop on or off, and returns the CPU they took
// and their total hits; the loop must have answered every one when on.
func benchSearches(b *testing.B, ix *store.Index, reqs []*Request, on bool) (time.Duration, int) {
	loopOn = on
	defer func() { loopOn = true }()
	runs, hits := loopRuns.Load(), 0
	began := cpuNow()
	for _, req := range reqs {
		resp, err := Run(context.Background(), []*store.Index{ix}, req, Options{})
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := json.Marshal(resp["hits"])
		var h struct{ Total struct{ Value int } }
		_ = json.Unmarshal(raw, &h)
		hits += h.Total.Value
	}
	cpu := cpuNow() - began
	if ran := loopRuns.Load() - runs; on && ran != int64(len(reqs)) {
		b.Fatalf("the loop answered %d of %d searches", ran, len(reqs))
	}
	return cpu, hits
}
