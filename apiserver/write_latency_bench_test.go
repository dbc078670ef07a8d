package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/test/benchdata"
)

// The single-record write latency of docs/benchmarks.md: one client writes one record at
// a time through the API (a real HTTP request with a bearer key to a listening replica)
// and, alternated with it, straight to the engine as PUT _doc?refresh=wait_for, the
// fastest write that is searchable when it returns (invariant 2). Each API index is alone
// in a workspace whose plan limits its records, as the sample workspace of make run is.
// AISLE_BENCH=1 runs it (see bench_test.go). The series take turns every burst writes,
// so that the load of the shared machine falls on all alike; AISLE_BENCH_ROUNDS (default
// 3) makes 100 writes of each series per round.

// burst is the number of sequential writes of one series before the next takes its turn.
const burst = 10

// latencySeries is the durations of one kind of write.
type latencySeries struct {
	name  string
	write func(i int, doc json.RawMessage)
	took  []time.Duration
}

// quantile is the nearest-rank q-quantile of sorted durations.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func (s *latencySeries) percentiles() (p50, p99 time.Duration) {
	sorted := slices.Clone(s.took)
	slices.Sort(sorted)
	return quantile(sorted, 0.50), quantile(sorted, 0.99)
}

// timedPost sends one write to replica i and checks for a 202; the answer is not
// validated against the OpenAPI document, so that only the server's time is measured.
func timedPost(i int, path, key string, body []byte) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, replicas[i%2]+path, bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := httpClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	Expect(resp.StatusCode).To(Equal(http.StatusAccepted), string(answer))
}

var _ = Describe("Benchmark of the single-record write latency", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the catalog benchmarks")
		}
	})

	It("times sequential single-record POST /records against PUT _doc?refresh=wait_for straight to the engine", func() {
		// Each series writes to an index of its own, so that every index takes as many
		// writes (a refresh costs more in an index with more segments).
		direct := directIndex("bench-single-direct")
		one, alternating, create := newPlanIndex(1_000_000), newPlanIndex(1_000_000), newPlanIndex(1_000_000)
		series := []*latencySeries{
			{name: "direct PUT _doc?refresh=wait_for", write: func(i int, doc json.RawMessage) {
				_, err := esClient.Index(direct).Id(fmt.Sprintf("sku-%06d", i)).Raw(bytes.NewReader(doc)).Refresh(refresh.Waitfor).Do(ctx)
				Expect(err).NotTo(HaveOccurred())
			}},
			{name: "POST /records, one replica", write: func(_ int, doc json.RawMessage) {
				timedPost(0, one.base+"/records", one.writeKey, recordsJSON(doc))
			}},
			{name: "POST /records, replicas alternating", write: func(i int, doc json.RawMessage) {
				timedPost(i, alternating.base+"/records", alternating.writeKey, recordsJSON(doc))
			}},
			{name: "POST /record-writes (create), one replica", write: func(_ int, doc json.RawMessage) {
				timedPost(0, create.base+"/record-writes", create.writeKey, createJSON(doc))
			}},
		}
		// Every write creates a record: each series writes its own part of the documents.
		turns := benchRounds() * 100 / burst
		perSeries := (turns + 1) * burst
		docs := benchdata.Products(len(series) * perSeries)
		run := func(n int, s *latencySeries, k int) time.Duration {
			i := n*perSeries + k
			t0 := time.Now()
			s.write(i, docs[i])
			return time.Since(t0)
		}
		for n, s := range series { // warm up: connections, caches
			for k := 0; k < burst; k++ {
				run(n, s, k)
			}
		}
		loadBefore := loadAverage()
		for turn := 1; turn <= turns; turn++ {
			for n, s := range series {
				for k := 0; k < burst; k++ {
					s.took = append(s.took, run(n, s, turn*burst+k))
				}
			}
		}
		GinkgoWriter.Printf("load average before the run %s, after %s\n", loadBefore, loadAverage())
		d50, d99 := series[0].percentiles()
		for _, s := range series {
			p50, p99 := s.percentiles()
			GinkgoWriter.Printf("%-44s p50 %6.2f ms (%.2fx)  p99 %6.2f ms (%.2fx)  n=%d\n", s.name,
				millis(p50), p50.Seconds()/d50.Seconds(), millis(p99), p99.Seconds()/d99.Seconds(), len(s.took))
		}
	})
})

func recordsJSON(doc json.RawMessage) []byte {
	raw, err := json.Marshal(map[string]any{"records": []json.RawMessage{doc}})
	Expect(err).NotTo(HaveOccurred())
	return raw
}

// createJSON is a conditional create of doc (expectedVersion 0).
func createJSON(doc json.RawMessage) []byte {
	var rec struct {
		ObjectID string `json:"objectID"`
	}
	Expect(json.Unmarshal(doc, &rec)).To(Succeed())
	raw, err := json.Marshal(map[string]any{"operation": "upsert", "objectID": rec.ObjectID, "expectedVersion": 0, "record": doc})
	Expect(err).NotTo(HaveOccurred())
	return raw
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
