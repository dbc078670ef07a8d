package engine_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/engine/vectors/vectorgen"
)

// vectorDims is the dimension count of the budget: Universal Sentence Encoder
// lite's 512.
const vectorDims = 512

// vectorMapping is the catalog benchmark's mapping with a 512-dimension int8_hnsw field,
// as indexmapping maps an embedder.
var vectorMapping = strings.Replace(benchMapping, `"tags":{"type":"keyword"}`,
	`"tags":{"type":"keyword"},"embedding":{"type":"dense_vector","dims":512,"index":true,`+
		`"similarity":"cosine","index_options":{"type":"int8_hnsw"}}`, 1)

// BenchmarkCatalogVectors is issue 38's resident budget and recall at scale: the catalog
// benchmark's 100,000 products (AISLE_BENCH_DOCS), each with a generated 512-dimension
// vector (vectorgen: 200 topics, as embeddings cluster), indexed in 500-document bulks by
// an engine in its own process, with GOMEMLIMIT=1GiB and as in a container limited to
// 1 GiB (the chart's settings: a 768 MiB heap limit and a 1 GiB resident budget), then
// 100 kNN searches (k 10 at the default num_candidates, from another seed) compared with
// exact search's 10. It reports the engine's peak RSS (VmHWM, through indexing, merging
// and searching), recall@10, the kNN searches' latency and CPU. Several minutes (the
// graphs are built at refresh and merge), so it runs only with AISLE_BENCH_VECTORS=1
// (make bench):
//
//	AISLE_BENCH_VECTORS=1 go test -run='^$' -bench=BenchmarkCatalogVectors -benchtime=1x -timeout=60m ./internal/engine/
func BenchmarkCatalogVectors(b *testing.B) {
	if os.Getenv("AISLE_BENCH_VECTORS") == "" {
		b.Skip("set AISLE_BENCH_VECTORS=1 (make bench)")
	}
	docs := envInt("AISLE_BENCH_DOCS", 100000)
	b.Run("GOMEMLIMIT=1GiB", func(b *testing.B) { benchCatalogVectors(b, docs, "GOMEMLIMIT=1GiB") })
	b.Run("1GiB_container", func(b *testing.B) { benchCatalogVectors(b, docs, inContainer(1<<30)) })
}

func benchCatalogVectors(b *testing.B, docs int, env ...string) {
	const perBulk, queries, k = 500, 100, 10
	for n := 0; n < b.N; n++ {
		dir := b.TempDir()
		eng := startEngineProcess(b, dir, env...)
		client, err := elasticsearch.NewTypedClient(elasticsearch.Config{Addresses: []string{eng.url}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.Indices.Create("products").Raw(strings.NewReader(vectorMapping)).Do(ctx); err != nil {
			b.Fatal(err)
		}
		all := make([]float32, docs*vectorDims)
		r := rand.New(rand.NewSource(42))
		zipf := rand.NewZipf(r, 1.1, 10, uint64(len(vocabulary)-1))
		gen := vectorgen.New(vectorDims, 1)
		start := 0
		indexTime, indexCPU := sendBulks(b, client, eng, func() []byte {
			if start >= docs {
				return nil
			}
			end := min(start+perBulk, docs)
			body := vectorBulkBody(r, zipf, gen, all, start, end)
			start = end
			return body
		})
		qs := vectorgen.Generated(queries, vectorDims, 2)
		// The exact answers are computed first and the merges that follow the last
		// refresh are let finish, so that the engine CPU of the loop below is the
		// searches' own, not the background merges' nor time spent between searches.
		vecs := make([][]float32, queries)
		exact := make([][]string, queries)
		for q := range vecs {
			vecs[q] = qs[q*vectorDims : (q+1)*vectorDims]
			exact[q] = exactTopIDs(all, vecs[q], k)
		}
		b.ReportMetric(eng.settle().Seconds(), "settle_s")
		cpuBefore := eng.cpuSeconds()
		var lat []time.Duration
		total := 0.0
		for q := 0; q < queries; q++ {
			t := time.Now()
			got := knnSearchIDs(b, client, vecs[q], k)
			lat = append(lat, time.Since(t))
			total += overlap(got, exact[q]) / k
		}
		searchCPU := eng.cpuSeconds() - cpuBefore
		peak := eng.peakRSSMB()
		disk := dirBytes(dir)
		eng.stop(b)
		slices.Sort(lat)
		b.ReportMetric(float64(docs)/indexTime.Seconds(), "docs/s")
		b.ReportMetric(indexCPU, "index_cpu_s")
		b.ReportMetric(total/queries, "recall@10")
		b.ReportMetric(ms(lat[len(lat)/2]), "knn_p50_ms")
		b.ReportMetric(ms(lat[len(lat)*99/100]), "knn_p99_ms")
		b.ReportMetric(1000*searchCPU/queries, "knn_cpu_ms/op")
		b.ReportMetric(peak, "peak_rss_MB")
		b.ReportMetric(float64(disk)/1e6, "disk_MB")
	}
}

// vectorBulkBody is the _bulk body of products start..end with their vectors, which it
// also keeps in all for the exact search.
func vectorBulkBody(r *rand.Rand, zipf *rand.Zipf, gen *vectorgen.Generator, all []float32, start, end int) []byte {
	var sb bytes.Buffer
	for i := start; i < end; i++ {
		vec := all[i*vectorDims : (i+1)*vectorDims]
		gen.Next(vec)
		doc := productDoc(r, zipf, i)
		doc["embedding"] = vec
		raw, _ := json.Marshal(doc)
		fmt.Fprintf(&sb, "{\"index\":{\"_id\":\"%d\"}}\n%s\n", i, raw)
	}
	return sb.Bytes()
}

// knnSearchIDs runs a top-level kNN search of k at the default num_candidates.
func knnSearchIDs(b *testing.B, client *elasticsearch.TypedClient, vec []float32, k int) []string {
	body, _ := json.Marshal(map[string]any{"size": k, "_source": false,
		"knn": map[string]any{"field": "embedding", "query_vector": vec, "k": k}})
	res, err := client.Search().Index("products").Raw(bytes.NewReader(body)).Do(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ids := make([]string, len(res.Hits.Hits))
	for i, h := range res.Hits.Hits {
		ids[i] = *h.Id_
	}
	return ids
}

// exactTopIDs are the IDs of the k vectors of all most similar to q by cosine.
func exactTopIDs(all, q []float32, k int) []string {
	type hit struct {
		id  int
		sim float64
	}
	norm := func(v []float32) float64 {
		var s float64
		for _, x := range v {
			s += float64(x) * float64(x)
		}
		return math.Sqrt(s)
	}
	qn := norm(q)
	var top []hit
	for i := 0; i < len(all)/vectorDims; i++ {
		v := all[i*vectorDims : (i+1)*vectorDims]
		var dot float64
		for j, x := range v {
			dot += float64(x) * float64(q[j])
		}
		h := hit{i, dot / (norm(v) * qn)}
		if len(top) < k || h.sim > top[len(top)-1].sim {
			top = append(top, h)
			slices.SortFunc(top, func(a, b hit) int { return cmp.Compare(b.sim, a.sim) })
			top = top[:min(k, len(top))]
		}
	}
	ids := make([]string, len(top))
	for i, h := range top {
		ids[i] = strconv.Itoa(h.id)
	}
	return ids
}

// overlap counts the IDs of got that want holds.
func overlap(got, want []string) float64 {
	n := 0
	for _, id := range got {
		if slices.Contains(want, id) {
			n++
		}
	}
	return float64(n)
}
