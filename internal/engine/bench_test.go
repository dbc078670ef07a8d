package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
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

// BenchmarkCatalog indexes 100,000 ~1 KB products with 1,000-document bulks, then runs a
// multi_match query with two filters and two terms aggregations from 8 concurrent clients,
// against the engine as users run it: its own process (this test binary acting as
// `aisle engine`, with its GC settings), with the default heap limit, with GOMEMLIMIT=1GiB
// (the budget of the side-by-side benchmark against Lucene's -Xmx1g), and as in a
// container limited to 1 GiB (a 768 MiB heap limit, see engine.TuneGC). CPU, peak RSS and
// disk are the engine process's own. Run with:
// go test -run='^$' -bench=BenchmarkCatalog -benchtime=1x -timeout=30m ./internal/engine/
func BenchmarkCatalog(b *testing.B) {
	docs := envInt("AISLE_BENCH_DOCS", 100000)
	b.Run("unbounded", func(b *testing.B) { benchCatalog(b, docs) })
	b.Run("GOMEMLIMIT=1GiB", func(b *testing.B) { benchCatalog(b, docs, "GOMEMLIMIT=1GiB") })
	b.Run("1GiB_container", func(b *testing.B) { benchCatalog(b, docs, inContainer(1<<30)) })
}

// inContainer is the environment of an engine process that runs as in a container limited
// to bytes of memory (see containerEnv).
func inContainer(bytes uint64) string {
	return containerEnv + "=" + strconv.FormatUint(bytes, 10)
}

func benchCatalog(b *testing.B, docs int, env ...string) {
	const perBulk, clients = 1000, 8
	queriesPerClient := envInt("AISLE_BENCH_QUERIES", 250)
	for n := 0; n < b.N; n++ {
		dir := b.TempDir()
		eng := startEngineProcess(b, dir, env...)
		client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{eng.url}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.Indices.Create("products").Raw(strings.NewReader(benchMapping)).Do(ctx); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		indexTime, indexCPU := indexProducts(b, client, eng, docs, perBulk)
		b.StopTimer()
		liveDisk := dirBytes(dir)

		// Warm-up, not timed: the first queries after indexing build per-segment columns and
		// fault in the new segments' pages; ES benchmarks (Rally) also warm up first.
		runQueries(b, client, clients, 5, 1000) // other queries than the timed ones
		cpuBefore := eng.cpuSeconds()
		searchBegan := time.Now()
		lat := runQueries(b, client, clients, queriesPerClient, 0)
		searchCPU := eng.cpuSeconds() - cpuBefore
		b.Logf("search: %d queries in %v wall, %.1f s engine CPU", len(lat), time.Since(searchBegan), searchCPU)
		peak := eng.peakRSSMB()
		eng.stop(b)
		b.ReportMetric(indexTime.Seconds(), "index_s")
		b.ReportMetric(float64(docs)/indexTime.Seconds(), "docs/s")
		b.ReportMetric(indexCPU*100000/float64(docs), "cpu_s/100k_docs")
		reportSearchAndSize(b, lat, searchCPU, peak, liveDisk, dir)
	}
}

// reportSearchAndSize reports the timed queries' latencies (sorted) and engine CPU, the
// engine's peak RSS, and its data directory's size while running and now (closed).
func reportSearchAndSize(b *testing.B, lat []time.Duration, searchCPU, peakMB float64, liveDisk int64, dir string) {
	b.ReportMetric(ms(lat[len(lat)/2]), "p50_ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99_ms")
	b.ReportMetric(1000*searchCPU/float64(len(lat)), "search_cpu_ms/op")
	b.ReportMetric(peakMB, "peak_rss_MB")
	b.ReportMetric(float64(liveDisk)/1e6, "disk_MB")
	b.ReportMetric(float64(dirBytes(dir))/1e6, "disk_closed_MB")
}

// indexProducts sends the documents in bulks built one at a time (a million documents'
// bodies would not fit next to the engine), then refreshes; it returns the wall time and
// the engine's CPU seconds.
func indexProducts(b *testing.B, client *elasticsearch.TypedClient, eng *engineProcess, docs, perBulk int) (time.Duration, float64) {
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
	start := 0
	return sendBulks(b, client, eng, func() []byte {
		if start >= docs {
			return nil
		}
		body := bulkBody(r, zipf, start, min(start+perBulk, docs))
		start += perBulk
		return body
	})
}

// bulkBody is the _bulk body of documents [start, end).
func bulkBody(r *rand.Rand, zipf *rand.Zipf, start, end int) []byte {
	var sb bytes.Buffer
	for i := start; i < end; i++ {
		doc, _ := json.Marshal(productDoc(r, zipf, i))
		fmt.Fprintf(&sb, "{\"index\":{\"_id\":\"%d\"}}\n%s\n", i, doc)
	}
	return sb.Bytes()
}

// sendBulks sends the bodies next returns until it returns nil, one at a time, then
// refreshes; it returns the wall time and the engine's CPU seconds.
func sendBulks(b *testing.B, client *elasticsearch.TypedClient, eng *engineProcess, next func() []byte) (time.Duration, float64) {
	cpuBefore := eng.cpuSeconds()
	began := time.Now()
	var slowest time.Duration
	for body := next(); body != nil; body = next() {
		t := time.Now()
		if err := sendBulk(client, body); err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(t))
	}
	bulkDone := time.Since(began)
	if _, err := client.Indices.Refresh().Index("products").Do(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("bulks done after %v (slowest bulk %v), final refresh %v", bulkDone, slowest, time.Since(began)-bulkDone)
	b.ReportMetric(ms(slowest), "slowest_bulk_ms")
	return time.Since(began), eng.cpuSeconds() - cpuBefore
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
