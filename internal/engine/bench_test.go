package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"

	"github.com/aislehq/aisle/internal/engine"
)

var benchWords = strings.Fields(`alpine amber anchor arctic atlas aurora balance basic bold breeze bright
canvas carbon cedar classic cloud coastal comfort compact copper cotton crystal daily denim desert
eco edge element elite ember essential everyday falcon field flex forest fresh frost glacier harbor
heritage horizon indigo iron jade journey lake leather legend light linen lunar maple marine meadow
metro midnight mineral modern mountain native nova oak ocean olive onyx orbit pacific peak pebble
pine pioneer polar prairie prime quartz rain ranger raven reef ridge river rock rustic sage sand
shadow sierra silk slate solar spark spruce steel stone storm summit sunset terra thunder timber
trail tundra urban valley velvet vintage wave wild willow wind winter wool zen`)

var benchNouns = strings.Fields(`jacket boots shoes backpack tent lamp mug bottle knife chair table
sofa blanket pillow watch camera headphones speaker keyboard mouse monitor phone case charger cable
scarf gloves hat socks shirt trousers dress skirt belt wallet bag umbrella bicycle helmet`)

// vocabulary is a synthetic 5,000-word vocabulary for descriptions; words are drawn with
// a Zipf distribution, as words in real product text are.
var vocabulary = func() []string {
	r := rand.New(rand.NewSource(7))
	letters := "abcdefghijklmnopqrstuvwxyz"
	out := make([]string, 5000)
	for i := range out {
		n := 3 + r.Intn(7)
		b := make([]byte, n)
		for j := range b {
			b[j] = letters[r.Intn(len(letters))]
		}
		out[i] = string(b)
	}
	return out
}()

// productDoc builds a ~1 KB product document: a title from 150 common words and 40 product
// nouns, a ~700-character description from the Zipf vocabulary, and keyword, numeric and
// date fields.
func productDoc(r *rand.Rand, zipf *rand.Zipf, i int) map[string]any {
	w := func() string { return benchWords[r.Intn(len(benchWords))] }
	n := benchNouns[r.Intn(len(benchNouns))]
	desc := make([]string, 0, 110)
	size := 0
	for size < 700 {
		word := vocabulary[zipf.Uint64()]
		desc = append(desc, word)
		size += len(word) + 1
	}
	return map[string]any{
		"sku":         fmt.Sprintf("SKU-%08d", i),
		"title":       fmt.Sprintf("%s %s %s %s", capitalize(w()), capitalize(w()), capitalize(n), w()),
		"description": strings.Join(desc, " ") + " " + n,
		"brand":       fmt.Sprintf("brand-%03d", r.Intn(200)),
		"category":    fmt.Sprintf("cat-%02d", r.Intn(40)),
		"price":       float64(r.Intn(50000)) / 100,
		"stock":       r.Intn(500),
		"rating":      float64(r.Intn(50)) / 10,
		"created":     time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.Intn(365*24)) * time.Hour).Format(time.RFC3339),
		"tags":        []string{w(), w(), n},
	}
}

const benchMapping = `{"mappings":{"properties":{
 "sku":{"type":"keyword"},"title":{"type":"text","fields":{"keyword":{"type":"keyword","ignore_above":256}}},
 "description":{"type":"text"},"brand":{"type":"keyword"},"category":{"type":"keyword"},
 "price":{"type":"float"},"stock":{"type":"long"},"rating":{"type":"float"},"created":{"type":"date"},"tags":{"type":"keyword"}}}}`

func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			f := strings.Fields(line)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkCatalog indexes 100,000 ~1 KB products with 1,000-document bulks, then runs a
// multi_match query with two filters and two terms aggregations from 8 concurrent clients.
// Run with: go test -run='^$' -bench=BenchmarkCatalog -benchtime=1x -timeout=30m ./internal/engine/
func BenchmarkCatalog(b *testing.B) {
	const perBulk, clients = 1000, 8
	docs, queriesPerClient := envInt("AISLE_BENCH_DOCS", 100000), envInt("AISLE_BENCH_QUERIES", 250)
	for n := 0; n < b.N; n++ {
		if _, err := engine.TuneGC(); err != nil { // as `aisle engine` runs it
			b.Fatal(err)
		}
		srv, err := engine.Start(ctx, engine.Config{DataDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{srv.URL()}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.Indices.Create("products").Raw(strings.NewReader(benchMapping)).Do(ctx); err != nil {
			b.Fatal(err)
		}
		r := rand.New(rand.NewSource(42))
		zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
		bodies := make([][]byte, 0, docs/perBulk)
		var size int
		for start := 0; start < docs; start += perBulk {
			var sb strings.Builder
			for i := start; i < start+perBulk; i++ {
				doc, _ := json.Marshal(productDoc(r, zipf, i))
				size += len(doc)
				fmt.Fprintf(&sb, "{\"index\":{\"_id\":\"%d\"}}\n%s\n", i, doc)
			}
			bodies = append(bodies, []byte(sb.String()))
		}
		b.Logf("average document size: %d bytes", size/docs)

		b.ResetTimer()
		cpuBefore := cpuSeconds()
		began := time.Now()
		var slowest time.Duration
		for _, body := range bodies {
			t := time.Now()
			if err := sendBulk(client, body); err != nil {
				b.Fatal(err)
			}
			if d := time.Since(t); d > slowest {
				slowest = d
			}
		}
		bulkDone := time.Since(began)
		if _, err := client.Indices.Refresh().Index("products").Do(ctx); err != nil {
			b.Fatal(err)
		}
		b.Logf("bulks done after %v (slowest bulk %v), final refresh %v", bulkDone, slowest, time.Since(began)-bulkDone)
		indexTime := time.Since(began)
		indexCPU := cpuSeconds() - cpuBefore
		b.StopTimer()
		if path := os.Getenv("AISLE_BENCH_HEAP"); path != "" {
			if f, err := os.Create(path); err == nil {
				_ = pprof.WriteHeapProfile(f)
				_ = f.Close()
			}
		}

		// Warm-up, not timed: the first queries after indexing build per-segment columns and
		// fault in the new segments' pages; ES benchmarks (Rally) also warm up first.
		runQueries(b, client, clients, 5, 1000) // other queries than the timed ones
		cpuBefore = cpuSeconds()
		searchBegan := time.Now()
		lat := runQueries(b, client, clients, queriesPerClient, 0)
		searchCPU := cpuSeconds() - cpuBefore
		b.Logf("search: %d queries in %v wall, %.1f s CPU (%.1f ms CPU per query, client included)",
			len(lat), time.Since(searchBegan), searchCPU, 1000*searchCPU/float64(len(lat)))
		b.ReportMetric(indexTime.Seconds(), "index_s")
		b.ReportMetric(indexCPU, "index_cpu_s")
		b.ReportMetric(float64(docs)/indexTime.Seconds(), "docs/s")
		b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), "p99_ms")
		b.ReportMetric(1000*searchCPU/float64(len(lat)), "search_cpu_ms/op")
		b.ReportMetric(peakRSSMB(), "peak_rss_MB")
		if err := srv.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// sendBulk sends one _bulk request with the typed client and, as Rally's load driver
// does, reads only the response's errors flag (items are decoded only when it is set):
// decoding all 1,000 per-item results with the typed client cost the load generator
// about 1.2 CPU-s per 100,000 documents, on the two cores the engine needs.
func sendBulk(client *elasticsearch.TypedClient, body []byte) error {
	res, err := client.Bulk().Index("products").Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	var head struct {
		Errors bool              `json:"errors"`
		Items  []json.RawMessage `json:"items"`
	}
	if res.StatusCode != 200 || bytes.Contains(raw[:min(len(raw), 64)], []byte(`"errors":true`)) {
		_ = json.Unmarshal(raw, &head)
		return fmt.Errorf("bulk failed: status %d, %d items, %.300s", res.StatusCode, len(head.Items), raw)
	}
	if !bytes.Contains(raw[:min(len(raw), 64)], []byte(`"errors":false`)) {
		return fmt.Errorf("bulk response without an errors flag at its start: %.200s", raw)
	}
	return nil
}

// cpuSeconds is the process's user+system CPU time: on a shared machine it measures the
// work done independently of what other processes take.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func runQueries(b *testing.B, client *elasticsearch.TypedClient, clients, perClient int, seed int64) []time.Duration {
	var mu sync.Mutex
	var lat []time.Duration
	var matched int64
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(seed + int64(c)))
			for i := 0; i < perClient; i++ {
				// A shopper's query: a title word and a product noun, e.g. "alpine jacket".
				text := benchWords[r.Intn(len(benchWords))] + " " + benchNouns[r.Intn(len(benchNouns))]
				lo := float64(r.Intn(200))
				q := &types.Query{Bool: &types.BoolQuery{
					Must: []types.Query{{MultiMatch: &types.MultiMatchQuery{Query: text, Fields: []string{"title^3", "description"}}}},
					Filter: []types.Query{
						{Range: map[string]types.RangeQuery{"price": types.NumberRangeQuery{Gte: (*types.Float64)(&lo)}}},
						{Range: map[string]types.RangeQuery{"stock": types.NumberRangeQuery{Gt: ptr(types.Float64(0))}}},
					},
				}}
				start := time.Now()
				res, err := client.Search().Index("products").Query(q).Size(20).Aggregations(map[string]types.Aggregations{
					"brands":     {Terms: &types.TermsAggregation{Field: ptr("brand"), Size: ptr(10)}},
					"categories": {Terms: &types.TermsAggregation{Field: ptr("category"), Size: ptr(10)}},
				}).Do(ctx)
				d := time.Since(start)
				if err != nil {
					b.Error(err)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				matched += res.Hits.Total.Value
				mu.Unlock()
			}
		}(c)
	}
	wg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	if len(lat) > 0 {
		b.Logf("%d queries, %.0f matching documents per query on average", len(lat), float64(matched)/float64(len(lat)))
	}
	return lat
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}
