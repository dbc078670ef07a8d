package apiserver_test

import (
	"fmt"
	"net/http"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// What asking why not costs a search (docs/benchmarks.md): the same search of a 5,000
// record index through a replica, alone and with explain's objectID of a record at
// position 300, the two taking turns so that the shared machine's load falls on both.
// AISLE_BENCH=1 runs it (see bench_test.go).

const (
	whyNotBenchRecords = 5_000
	whyNotBenchRuns    = 60
)

var _ = Describe("Benchmark of why not", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the catalog benchmarks")
		}
		records := make([]string, whyNotBenchRecords)
		for i := range records {
			// Every record holds "lamp"; popularity alone orders them, so record 299 is 300th.
			records[i] = fmt.Sprintf(`{"objectID": "b%d", "name": "Lamp %d", "brand": "B%d", "channel": "web", "popularity": %d}`,
				i, i, i%20, whyNotBenchRecords-i)
		}
		ci = rankedIndex(fmt.Sprintf("whynot-bench-%d", GinkgoParallelProcess()), whyNotSettings, records...)
		Eventually(func() int64 { return searchIn(ci, `{"q": "lamp"}`).Total }).Should(BeEquivalentTo(whyNotBenchRecords))
	})

	It("adds two searches sent together: measured against the search alone", func() {
		plain := []byte(`{"q": "lamp", "facets": ["brand"]}`)
		asked := []byte(`{"q": "lamp", "facets": ["brand"], "explain": {"objectID": "b299"}}`)
		a := whyNot(ci, `{"q": "lamp", "facets": ["brand"]}`, "b299")
		Expect(*a.WhyNot.Position).To(Equal(300))
		Expect(a.WhyNot.Reasons[0].Reason).To(Equal("ranked"))
		var alone, with []measured
		for range whyNotBenchRuns {
			alone = append(alone, measure(func() {
				Expect(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, plain).status).To(Equal(http.StatusOK))
			}))
			with = append(with, measure(func() {
				Expect(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, asked).status).To(Equal(http.StatusOK))
			}))
		}
		ma, mw := median(alone), median(with)
		AddReportEntry("why not", fmt.Sprintf("%d records, %d runs each, medians: search %v wall %v CPU; with why not %v wall %v CPU",
			whyNotBenchRecords, whyNotBenchRuns, ma.wall, ma.cpu, mw.wall, mw.cpu))
		GinkgoWriter.Printf("why not: search %v wall %v CPU; with why not %v wall %v CPU\n", ma.wall, ma.cpu, mw.wall, mw.cpu)
	})
})
