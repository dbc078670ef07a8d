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
	"github.com/aislehq/aisle/test/benchdata"
)

// benchMapping maps test/benchdata's catalog records as internal/indexmapping maps a
// catalog: searchable text analysed in English with an unstemmed words subfield,
// keywords, numbers.
const benchMapping = `{"properties":{"objectID":{"type":"keyword"},
 "name":{"type":"text","analyzer":"english","fields":{"words":{"type":"text"}}},
 "description":{"type":"text","analyzer":"english","fields":{"words":{"type":"text"}}},
 "brand":{"type":"keyword"},"price":{"type":"double"},"popularity":{"type":"long"},"aisleVersion":{"type":"long"},
 "color":{"type":"keyword"},"category":{"type":"keyword"},"groupId":{"type":"keyword"}}}`

// benchCatalog indexes n of the search benchmark's catalog records, 5,000 to a refresh.
func benchCatalog(b *testing.B, n int) *store.Index {
	st, err := store.Open(b.TempDir())
	check(b, err)
	b.Cleanup(func() { _ = st.Close() })
	m, err := mapper.Parse(json.RawMessage(benchMapping))
	check(b, err)
	ix, err := st.Create("catalog", store.CreateRequest{Mapping: m})
	check(b, err)
	ops := make([]store.Op, 0, 5000)
	for i, doc := range benchdata.Catalog(n) {
		ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprintf("sku-%06d", i), Source: doc})
		if len(ops) < cap(ops) && i+1 < n {
			continue
		}
		_, err := ix.Write(ops)
		check(b, err)
		check(b, ix.Refresh())
		ops = ops[:0]
	}
	return ix
}

func check(b *testing.B, err error) {
	if err != nil {
		b.Fatal(err)
	}
}

// benchShape is a part of a catalog search as internal/searchquery builds it: each
// shape adds one to the one before, the last is the whole search of a shopper who
// chose brands.
type benchShape struct {
	name                    string
	proximity, sorted, post bool
}

var benchShapes = []benchShape{{name: "bands"}, {name: "+proximity", proximity: true},
	{name: "+sort", proximity: true, sorted: true}, {name: "+post_filter", proximity: true, sorted: true, post: true}}

// benchSearch is the body of a search of two words (a common word with a letter
// dropped, and a name's noun still being typed): their bands, a price filter, a brand
// boosted, a facet; with the shape's proximity phrases, sort and chosen brands.
func benchSearch(r *rand.Rand, sh benchShape) []byte {
	first := benchdata.Vocabulary[r.Intn(200)]
	typo := first[:1] + first[2:]
	noun := benchQueries[r.Intn(len(benchQueries))]
	last := noun[:min(len(noun), 3+r.Intn(2))]
	should := []string{`{"constant_score":{"boost":36,"filter":{"term":{"brand":"brand-7"}}}}`}
	if sh.proximity {
		should = append(should, benchProximity(first+" "+noun))
	}
	body := map[string]any{"size": 20, "track_total_hits": true,
		"query": json.RawMessage(`{"bool":{"filter":[{"range":{"price":{"lt":400}}}],"must":[{"bool":{"must":[` +
			bandsOf(typo, false, "name") + `,` + bandsOf(last, true, "name") + `],"should":[` + strings.Join(should, ",") + `]}}]}}`),
		"aggs": map[string]any{"f0": map[string]any{"terms": map[string]any{"field": "brand", "size": 10}}}}
	if sh.sorted {
		body["sort"] = []any{map[string]any{"_score": "desc"}, map[string]any{"popularity": map[string]any{"order": "desc"}},
			map[string]any{"objectID": map[string]any{"order": "asc"}}}
	}
	if sh.post {
		var brands []any
		for i := range 20 {
			brands = append(brands, fmt.Sprint("brand-", i*10))
		}
		body["post_filter"] = map[string]any{"terms": map[string]any{"brand": brands}}
	}
	raw, _ := json.Marshal(body)
	return raw
}

// benchQueries are the product nouns of the catalog's names.
var benchQueries = strings.Fields("jacket boot lamp desk chair kettle mug bike helmet glove scarf wallet")

// benchProximity is internal/searchquery's proximity band: phrases of slops 0, 2 and 8
// across both fields, constant scores in a dis_max.
func benchProximity(words string) string {
	var out []string
	for j, slop := range []int{0, 2, 8} {
		out = append(out, fmt.Sprintf(`{"constant_score":{"boost":%d,"filter":{"multi_match":{"fields":["name","description"],"query":%q,"slop":%d,"type":"phrase"}}}}`, 27-9*j, words, slop))
	}
	return `{"dis_max":{"queries":[` + strings.Join(out, ",") + `]}}`
}

// BenchmarkLoop measures the CPU of catalog searches (benchShapes, each part of the
// search added to the one before) with the engine's own search loop and without it,
// alternated in one process over rounds of the same searches, on 100,000 of the search
// benchmark's records (AISLE_BENCH_DOCS); AISLE_BENCH_ROUNDS rounds of
// AISLE_BENCH_QUERIES searches of each shape each way. CPU is this process's (getrusage),
// garbage collection included; a CPU profile's samples carry the labels loop=on|off and
// shape. Run with:
//
//	go test -run='^$' -bench=BenchmarkLoop -benchtime=1x -timeout=30m ./internal/engine/searcher/
func BenchmarkLoop(b *testing.B) {
	ix := benchCatalog(b, benchEnv("AISLE_BENCH_DOCS", 100000))
	bodies := map[string][][]byte{}
	for _, sh := range benchShapes {
		r := rand.New(rand.NewSource(1))
		for range benchEnv("AISLE_BENCH_QUERIES", 40) {
			bodies[sh.name] = append(bodies[sh.name], benchSearch(r, sh))
		}
		sameAnswers(b, ix, bodies[sh.name])
	}
	per := map[string][]time.Duration{}
	for round := range benchEnv("AISLE_BENCH_ROUNDS", 4) {
		for _, sh := range benchShapes {
			for _, on := range []bool{round%2 == 0, round%2 != 0} {
				key := fmt.Sprintf("%s loop=%v", sh.name, on)
				per[key] = append(per[key], searchCPU(b, ix, sh.name, bodies[sh.name], on))
			}
			b.Logf("round %d %-13s loop off %v, on %v a search", round, sh.name, per[sh.name+" loop=false"][round], per[sh.name+" loop=true"][round])
		}
	}
	for _, sh := range benchShapes {
		on, off := mean(per[sh.name+" loop=true"]), mean(per[sh.name+" loop=false"])
		b.ReportMetric(ms(off), sh.name+"-off-cpu-ms/search")
		b.ReportMetric(ms(on), sh.name+"-on-cpu-ms/search")
	}
}

// sameAnswers checks that the loop answers the searches as bleve does, and finds hits;
// it warms both paths up (columns, statistics) too.
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

// searchCPU runs the searches and returns the CPU one took; with the loop on, every one
// must have gone through it.
func searchCPU(b *testing.B, ix *store.Index, shape string, bodies [][]byte, on bool) time.Duration {
	runs, began := loopRuns.Load(), cpuNow()
	labels := pprof.Labels("loop", map[bool]string{true: "on", false: "off"}[on], "shape", shape)
	pprof.Do(context.Background(), labels, func(context.Context) {
		for _, body := range bodies {
			_, err := searchWith(ix, body, on)
			check(b, err)
		}
	})
	cpu := (cpuNow() - began) / time.Duration(len(bodies))
	if ran := loopRuns.Load() - runs; on && ran != int64(len(bodies)) {
		b.Fatalf("%s: the loop answered %d of %d searches", shape, ran, len(bodies))
	}
	return cpu
}

// cpuNow is the CPU time this process has used.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
