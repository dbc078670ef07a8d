package engine_test

import (
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/elastic/go-elasticsearch/v8"
)

// BenchmarkCatalogMillion is the engine's side of the shared benchmark against Lucene at
// one million documents (`run.sh` of ../shared/bench/lucene with DOCS=1000000 and
// AISLE_ENV=GOMEMLIMIT=2GiB), with its figures: the same documents in bodies of 1,000
// built before the clock starts, sent by one client, then a refresh; 40 warm-up queries
// and 2,000 timed ones from 8 clients; the engine in its own process with
// GOMEMLIMIT=2GiB, measured alone. It takes several minutes, so it runs only when
// AISLE_BENCH_MILLION=1 (make bench-million), never in make bench or CI.
func BenchmarkCatalogMillion(b *testing.B) {
	if os.Getenv("AISLE_BENCH_MILLION") != "1" {
		b.Skip("set AISLE_BENCH_MILLION=1 (make bench-million)")
	}
	const docs, perBulk = 1000000, 1000
	bodies := productBulks(docs, perBulk)
	for n := 0; n < b.N; n++ {
		dir := b.TempDir()
		eng := startEngineProcess(b, dir, "GOMEMLIMIT=2GiB")
		client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{eng.url}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.Indices.Create("products").Raw(strings.NewReader(benchMapping)).Do(ctx); err != nil {
			b.Fatal(err)
		}
		sent := 0
		indexTime, indexCPU := sendBulks(b, client, eng, func() []byte {
			if sent == len(bodies) {
				return nil
			}
			sent++
			return bodies[sent-1]
		})
		liveDisk := dirBytes(dir)
		runQueries(b, client, 8, 5, 1000) // the warm-up queries
		cpuBefore := eng.cpuSeconds()
		lat := runQueries(b, client, 8, 250, 0)
		searchCPU := eng.cpuSeconds() - cpuBefore
		peak := eng.peakRSSMB()
		eng.stop(b)
		b.ReportMetric(float64(docs)/indexTime.Seconds(), "docs/s")
		b.ReportMetric(indexCPU, "index_cpu_s")
		reportSearchAndSize(b, lat, searchCPU, peak, liveDisk, dir)
	}
}

// productBulks builds the _bulk bodies of docs products, perBulk each, as the shared
// benchmark's generator writes them (same seeds, same documents).
func productBulks(docs, perBulk int) [][]byte {
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
	var out [][]byte
	for start := 0; start < docs; start += perBulk {
		out = append(out, bulkBody(r, zipf, start, min(start+perBulk, docs)))
	}
	return out
}
