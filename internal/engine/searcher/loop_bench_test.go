package searcher

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// catalogMapping is a catalog index's as internal/indexmapping lays it out: searchable
// text fields with a words subfield (words unstemmed), keywords, a price.
const catalogMapping = `{"properties":{
 "title":{"type":"text","analyzer":"english","fields":{"words":{"type":"text"},"keyword":{"type":"keyword"}}},
 "description":{"type":"text","analyzer":"english","fields":{"words":{"type":"text"}}},
 "brand":{"type":"keyword"},"price":{"type":"float"}}}`

// syllables make the catalog's words: 8,000 of three syllables, so that a typo of one
// is often another's, and a prefix of three or four letters starts dozens to hundreds.
var syllables = strings.Fields("ka lo mi ne ru sa ti ve po da ri mo lu be chi fa go hu je zo")

func catalogWord(n int) string {
	k := len(syllables)
	return syllables[n%k] + syllables[n/k%k] + syllables[n/k/k%k]
}

// catalogIndex indexes n products: titles of three words and descriptions of thirty,
// drawn with a Zipf distribution, a brand of 200 and a price.
func catalogIndex(b *testing.B, n int) *store.Index {
	st, err := store.Open(b.TempDir())
	check(b, err)
	b.Cleanup(func() { _ = st.Close() })
	m, err := mapper.Parse(json.RawMessage(catalogMapping))
	check(b, err)
	ix, err := st.Create("catalog", store.CreateRequest{Mapping: m})
	check(b, err)
	r := rand.New(rand.NewSource(42))
	zipf := rand.NewZipf(r, 1.1, 10, 7999)
	words := func(k int) string {
		out := make([]string, k)
		for i := range out {
			out[i] = catalogWord(int(zipf.Uint64()))
		}
		return strings.Join(out, " ")
	}
	for start := 0; start < n; start += 1000 {
		ops := make([]store.Op, 0, 1000)
		for i := start; i < min(start+1000, n); i++ {
			doc, _ := json.Marshal(map[string]any{"title": words(3), "description": words(30),
				"brand": fmt.Sprint("brand-", r.Intn(200)), "price": float64(r.Intn(50000)) / 100})
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: strconv.Itoa(i), Source: doc})
		}
		_, err := ix.Write(ops)
		check(b, err)
	}
	check(b, ix.Refresh())
	return ix
}

func check(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

// catalogSearch is the body a catalog search of two words sends, its proximity phrases
// left out: the first word with a typo, the last a prefix still being typed, a price
// filter, a brand band, the hits ranked by score, a facet.
func catalogSearch(r *rand.Rand) []byte {
	first := catalogWord(r.Intn(400))
	first = first[:2] + first[3:] // a letter dropped
	last := catalogWord(r.Intn(2000))[:3+r.Intn(2)]
	return []byte(`{"size":20,"track_total_hits":true,"query":{"bool":{
	  "filter":[{"range":{"price":{"lt":400}}}],
	  "must":[{"bool":{"must":[` + variantsOf(first, false) + `,` + variantsOf(last, true) + `],
	    "should":[{"constant_score":{"boost":36,"filter":{"term":{"brand":"brand-7"}}}}]}}]}},
	  "aggs":{"f0":{"terms":{"field":"brand","size":10}}}}`)
}

// cpuNow is the CPU time this process has used.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCatalogLoop measures the CPU of a catalog search (catalogSearch) with the
// engine's own search loop and without it, alternated in one process over rounds of the
// same searches, on 100,000 products (AISLE_BENCH_DOCS). Run with:
// go test -run='^$' -bench=CatalogLoop -benchtime=1x -timeout=30m ./internal/engine/searcher/
func BenchmarkCatalogLoop(b *testing.B) {
	ix := catalogIndex(b, benchEnv("AISLE_BENCH_DOCS", 100000))
	r := rand.New(rand.NewSource(1))
	bodies := make([][]byte, benchEnv("AISLE_BENCH_QUERIES", 200))
	for i := range bodies {
		bodies[i] = catalogSearch(r)
	}
	sameAnswers(b, ix, bodies[:20])
	runs := loopRuns.Load()
	per := map[bool][]time.Duration{}
	for round := 0; round < benchEnv("AISLE_BENCH_ROUNDS", 4); round++ {
		for _, on := range []bool{round%2 == 0, round%2 != 0} {
			per[on] = append(per[on], searchCPU(b, ix, bodies, on))
		}
		b.Logf("round %d: loop off %v, on %v a search", round, per[false][round], per[true][round])
	}
	if loopRuns.Load()-runs < int64(len(per[true])*len(bodies)) {
		b.Fatal("some searches did not go through the loop")
	}
	b.ReportMetric(ms(mean(per[false])), "off_cpu_ms/search")
	b.ReportMetric(ms(mean(per[true])), "on_cpu_ms/search")
	b.ReportMetric(float64(mean(per[true]))/float64(mean(per[false])), "on/off")
}

// sameAnswers checks that the loop answers the searches as bleve does; it warms both
// paths up (columns, statistics) too.
func sameAnswers(b *testing.B, ix *store.Index, bodies [][]byte) {
	for _, body := range bodies {
		on, err := searchWith(ix, body, true)
		check(b, err)
		off, err := searchWith(ix, body, false)
		check(b, err)
		if on != off || strings.HasPrefix(on, "error") || strings.Contains(on, `"hits":[]`) {
			b.Fatalf("search %s: loop %.300s, bleve %.300s", body, on, off)
		}
	}
}

// searchCPU runs the searches and returns the CPU one took. A CPU profile's samples
// carry the label loop=on or loop=off (pprof -tagfocus).
func searchCPU(b *testing.B, ix *store.Index, bodies [][]byte, on bool) time.Duration {
	began := cpuNow()
	pprof.Do(context.Background(), pprof.Labels("loop", map[bool]string{true: "on", false: "off"}[on]), func(context.Context) {
		for _, body := range bodies {
			_, err := searchWith(ix, body, on)
			check(b, err)
		}
	})
	return (cpuNow() - began) / time.Duration(len(bodies))
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func benchEnv(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
