package apiserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// What a settings change costs, end to end (docs/benchmarks.md): sequential PUT /config
// and PUT /public-access/policy through replica 0, and keyed searches through replica 1
// between them, the series taking turns every burst requests. AISLE_BENCH=1 runs it (see
// bench_test.go); AISLE_BENCH_ROUNDS (default 3) makes 100 requests of each series per
// round.

// timedSend sends one request to replica i and checks its status; the answer is not
// validated against the OpenAPI document, so that only the server's time is measured.
func timedSend(i int, method, path, key string, body any, want int) {
	raw, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	req, err := http.NewRequestWithContext(ctx, method, replicas[i%2]+path, bytes.NewReader(raw))
	Expect(err).NotTo(HaveOccurred())
	setHeaders(req, true, key, nil)
	resp, err := httpClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	Expect(resp.StatusCode).To(Equal(want))
}

var _ = Describe("Benchmark of a settings change", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the catalog benchmarks")
		}
	})

	It("times PUT /config and PUT /public-access/policy on one replica, and keyed searches on the other", func() {
		ix, _ := newSettingsIndex("bench-settings")
		policies := []any{
			map[string]any{"policy": map[string]any{"retrievableFields": []string{"name", "brand"}}},
			map[string]any{"policy": map[string]any{"retrievableFields": []string{"name", "brand", "price"}}},
		}
		series := []*latencySeries{
			{name: "PUT /config (facetFields changed)", write: func(i int, _ json.RawMessage) {
				timedSend(0, http.MethodPut, ix.base+"/config", ix.writeKey, withFacets(i%2 == 0), http.StatusOK)
			}},
			{name: "PUT /public-access/policy", write: func(i int, _ json.RawMessage) {
				timedSend(0, http.MethodPut, ix.base+"/public-access/policy", ix.writeKey, policies[i%2], http.StatusOK)
			}},
			{name: "POST /search (other replica)", write: func(int, json.RawMessage) {
				timedSend(1, http.MethodPost, ix.base+"/search", ix.searchKey, map[string]any{"q": "shoe", "facets": []string{"brand"}}, http.StatusOK)
			}},
		}
		turns := benchRounds() * 100 / burst
		run := func(s *latencySeries, i int) time.Duration {
			t0 := time.Now()
			s.write(i, nil)
			return time.Since(t0)
		}
		for _, s := range series { // warm up: connections, caches
			for k := range burst {
				run(s, k)
			}
		}
		loadBefore := loadAverage()
		for turn := 1; turn <= turns; turn++ {
			for _, s := range series {
				for k := range burst {
					s.took = append(s.took, run(s, turn*burst+k))
				}
			}
		}
		GinkgoWriter.Printf("load average before the run %s, after %s\n", loadBefore, loadAverage())
		for _, s := range series {
			p50, p99 := s.percentiles()
			GinkgoWriter.Printf("%-36s p50 %7.2f ms  p99 %7.2f ms  n=%d\n", s.name, millis(p50), millis(p99), len(s.took))
		}
	})
})
