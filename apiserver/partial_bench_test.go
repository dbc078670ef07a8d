package apiserver_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/test/benchdata"
)

// The partial update figures of docs/benchmarks.md (issue 37), measured as
// write_latency_bench_test.go measures single writes: series alternated every burst
// writes, AISLE_BENCH=1 to run, AISLE_BENCH_ROUNDS rounds.

// partialCatalog is the number of records each index holds before the partial updates.
const partialCatalog = 5000

// seeded is an API index holding the first n benchmark products, and the products.
func seeded(n int) (catalogIndex, []json.RawMessage) {
	ci := newPlanIndex(1_000_000)
	docs := benchdata.Products(n)
	for start := 0; start < n; start += 1000 {
		timedPost(0, ci.base+"/records", ci.writeKey, recordsBodyJSON(docs[start:min(start+1000, n)]))
	}
	return ci, docs
}

func recordsBodyJSON(docs []json.RawMessage) []byte {
	raw, err := json.Marshal(map[string]any{"records": docs})
	Expect(err).NotTo(HaveOccurred())
	return raw
}

// stockOps are operations decrementing the stock of records from..from+n of the catalog.
func stockOps(from, n int) []byte {
	ops := make([]string, n)
	for k := range ops {
		ops[k] = fmt.Sprintf(`{"objectID": "sku-%06d", "decrement": {"stock": 1}}`, (from+k)%partialCatalog)
	}
	return []byte(`{"operations": [` + strings.Join(ops, ",") + `]}`)
}

var _ = Describe("Benchmark of partial updates", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the catalog benchmarks")
		}
	})

	It("times a single-record POST /records/partial against _update?refresh=wait_for straight to the engine", func() {
		direct := directIndex("bench-partial-direct")
		directBulk(direct, benchdata.Products(partialCatalog), true)
		partial, _ := seeded(partialCatalog)
		whole, docs := seeded(partialCatalog)
		series := []*latencySeries{
			{name: "direct _update?refresh=wait_for", write: func(i int, _ json.RawMessage) {
				_, err := esClient.Update(direct, fmt.Sprintf("sku-%06d", i%partialCatalog)).
					Doc(map[string]any{"stock": i}).Refresh(refresh.Waitfor).Do(ctx)
				Expect(err).NotTo(HaveOccurred())
			}},
			{name: "POST /records/partial (one set), one replica", write: func(i int, _ json.RawMessage) {
				timedPost(0, partial.base+"/records/partial", partial.writeKey,
					[]byte(fmt.Sprintf(`{"operations": [{"objectID": "sku-%06d", "set": {"stock": %d}}]}`, i%partialCatalog, i)))
			}},
			{name: "POST /records (whole record), one replica", write: func(i int, _ json.RawMessage) {
				timedPost(0, whole.base+"/records", whole.writeKey, recordsJSON(docs[i%partialCatalog]))
			}},
		}
		turns := benchRounds() * 100 / burst
		for _, s := range series { // warm up
			for k := 0; k < burst; k++ {
				s.write(k, nil)
			}
		}
		loadBefore := loadAverage()
		for turn := 1; turn <= turns; turn++ {
			for _, s := range series {
				for k := 0; k < burst; k++ {
					t0 := time.Now()
					s.write(turn*burst+k, nil)
					s.took = append(s.took, time.Since(t0))
				}
			}
		}
		GinkgoWriter.Printf("load average before the run %s, after %s\n", loadBefore, loadAverage())
		d50, d99 := series[0].percentiles()
		for _, s := range series {
			p50, p99 := s.percentiles()
			GinkgoWriter.Printf("%-46s p50 %6.2f ms (%.2fx)  p99 %6.2f ms (%.2fx)  n=%d\n", s.name,
				millis(p50), p50.Seconds()/d50.Seconds(), millis(p99), p99.Seconds()/d99.Seconds(), len(s.took))
		}
	})

	It("compares 1,000 stock updates a request with POST /records of 1,000 whole records, in records a second", func() {
		partial, _ := seeded(partialCatalog)
		whole, docs := seeded(partialCatalog)
		type throughput struct {
			name string
			send func(turn int)
			took []time.Duration
		}
		series := []*throughput{
			{name: "POST /records/partial, 1,000 decrements", send: func(turn int) {
				timedPost(0, partial.base+"/records/partial", partial.writeKey, stockOps(turn*1000, 1000))
			}},
			{name: "POST /records, 1,000 whole records", send: func(turn int) {
				from := (turn * 1000) % partialCatalog
				timedPost(0, whole.base+"/records", whole.writeKey, recordsBodyJSON(docs[from:from+1000]))
			}},
		}
		for _, s := range series {
			s.send(0)
		}
		loadBefore := loadAverage()
		for turn := 1; turn <= benchRounds()*5; turn++ {
			for _, s := range series {
				t0 := time.Now()
				s.send(turn)
				s.took = append(s.took, time.Since(t0))
			}
		}
		GinkgoWriter.Printf("load average before the run %s, after %s\n", loadBefore, loadAverage())
		var base float64
		for i, s := range series {
			sorted := slices.Clone(s.took)
			slices.Sort(sorted)
			p50 := quantile(sorted, 0.5)
			rate := float64(1000*len(s.took)) / sum(s.took).Seconds()
			if i == 1 {
				base = rate
			}
			GinkgoWriter.Printf("%-42s p50 %7.1f ms a request, sustained %7.0f records/s  n=%d\n", s.name, millis(p50), rate, len(s.took))
		}
		partialRate := float64(1000*len(series[0].took)) / sum(series[0].took).Seconds()
		GinkgoWriter.Printf("partial / whole records a second: %.2fx\n", partialRate/base)
	})
})

func sum(ds []time.Duration) time.Duration {
	var t time.Duration
	for _, d := range ds {
		t += d
	}
	return t
}
