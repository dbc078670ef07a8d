package searcher

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
	"github.com/aislehq/aisle/test/benchdata"
)

// benchMapping maps benchdata.Catalog's records as the API server maps a catalog.
const benchMapping = `{"properties":{"objectID":{"type":"keyword"},"name":{"type":"text"},
 "description":{"type":"text"},"brand":{"type":"keyword"},"price":{"type":"double"},
 "popularity":{"type":"long"},"aisleVersion":{"type":"long"},"color":{"type":"keyword"},
 "category":{"type":"keyword"},"groupId":{"type":"keyword"}}}`

// benchCatalog indexes test/searchbench's n catalog records, 5,000 to a refresh.
func benchCatalog(b *testing.B, n int) *store.Index {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = st.Close() })
	m, err := mapper.Parse(json.RawMessage(benchMapping))
	if err != nil {
		b.Fatal(err)
	}
	ix, err := st.Create("catalog", store.CreateRequest{Mapping: m})
	if err != nil {
		b.Fatal(err)
	}
	ops := make([]store.Op, 0, 5000)
	for i, doc := range benchdata.Catalog(n) {
		ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprintf("sku-%06d", i), Source: doc})
		if len(ops) < cap(ops) && i+1 < n {
			continue
		}
		if _, err := ix.Write(ops); err != nil {
			b.Fatal(err)
		}
		if err := ix.Refresh(); err != nil {
			b.Fatal(err)
		}
		ops = ops[:0]
	}
	return ix
}

// benchQueries are test/searchbench's words, as a plain multi_match the loop runs.
var benchQueries = []string{benchdata.Vocabulary[3] + " jacket", "trail", benchdata.Vocabulary[17] + " scarf",
	"ceramic mug", "leather wallet", "oak " + benchdata.Vocabulary[40], "carbon bike", "linen"}

// benchBody is a catalog search's body with a plain multi_match for its query: the API
// server's sort (score, custom ranking, objectID), a price filter, the brand facet and,
// with post, the brands chosen as a post_filter.
func benchBody(q string, sorted, post bool) *Request {
	body := map[string]any{
		"query": map[string]any{"bool": map[string]any{
			"must":   []any{map[string]any{"multi_match": map[string]any{"query": q, "fields": []any{"name^3", "description"}}}},
			"filter": []any{map[string]any{"range": map[string]any{"price": map[string]any{"lt": 400}}}}}},
		"size": 20, "track_total_hits": true, "_source": []any{"objectID", "name", "price"},
		"aggs": map[string]any{"brand": map[string]any{"terms": map[string]any{"field": "brand", "size": 10}}},
	}
	if sorted {
		body["sort"] = []any{map[string]any{"_score": "desc"}, map[string]any{"popularity": map[string]any{"order": "desc"}},
			map[string]any{"objectID": map[string]any{"order": "asc"}}}
	}
	if post {
		body["post_filter"] = map[string]any{"terms": map[string]any{"brand": []any{"brand-1", "brand-7", "brand-42"}}}
	}
	raw, _ := json.Marshal(body)
	decoded, err := DecodeBody(raw) // numbers as the HTTP API decodes them
	if err == nil {
		var req *Request
		if req, err = ParseBody(decoded); err == nil {
			return req
		}
	}
	panic(err)
}

// BenchmarkLoopSort measures the CPU per search (getrusage of the process) of catalog
// searches with the loop on and off, alternated in rounds on 100,000 records, after a
// round that warms both paths:
//
//	go test -run='^$' -bench=BenchmarkLoopSort -benchtime=1x -v ./internal/engine/searcher/
func BenchmarkLoopSort(b *testing.B) {
	ix := benchCatalog(b, 100_000)
	shapes := []struct {
		name         string
		sorted, post bool
	}{{"score", false, false}, {"sort", true, false}, {"sort+post_filter", true, true}}
	const rounds, perRun = 8, 5
	for _, sh := range shapes { // build the columns and caches both paths read
		benchRun(b, ix, sh.sorted, sh.post, true, 1)
		benchRun(b, ix, sh.sorted, sh.post, false, 1)
	}
	total := map[string]time.Duration{}
	for round := 0; round < rounds*b.N; round++ {
		for _, sh := range shapes {
			for _, on := range []bool{round%2 == 0, round%2 != 0} {
				cpu := benchRun(b, ix, sh.sorted, sh.post, on, perRun)
				key := fmt.Sprintf("%s loop=%v", sh.name, on)
				total[key] += cpu
				b.Logf("round %d %-26s cpu %v/search", round, key, cpu.Round(time.Microsecond))
			}
		}
	}
	for _, sh := range shapes {
		on, off := total[sh.name+" loop=true"], total[sh.name+" loop=false"]
		b.ReportMetric(float64(on.Microseconds())/float64(rounds*b.N)/1000, sh.name+"-on-cpu-ms/op")
		b.ReportMetric(float64(off.Microseconds())/float64(rounds*b.N)/1000, sh.name+"-off-cpu-ms/op")
	}
}

// benchRun sends every query perRun times and returns the CPU per search.
func benchRun(b *testing.B, ix *store.Index, sorted, post, on bool, perRun int) time.Duration {
	loopOn = on
	defer func() { loopOn = true }()
	before, n := loopRuns.Load(), 0
	cpu0 := cpuNow()
	for range perRun {
		for _, q := range benchQueries {
			if _, err := Run(context.Background(), []*store.Index{ix}, benchBody(q, sorted, post), Options{}); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	cpu := (cpuNow() - cpu0) / time.Duration(n)
	if looped := loopRuns.Load() - before; on != (looped == int64(n)) {
		b.Fatalf("loop on %v, yet %d of %d searches went through it", on, looped, n)
	}
	return cpu
}
