package apiserver_test

import (
	"fmt"
	"net/http"
	"os"
	"runtime/pprof"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// What asking why not costs a search (docs/benchmarks.md): the same search of a 5,000
// record index through a replica, alone and with explain's objectID of a record at
// position 300, the two taking turns so that the shared machine's load falls on both.
// AISLE_BENCH=1 runs it (see bench_test.go); with AISLE_BENCH_PROFILE=<file>, a CPU
// profile of more runs with why not, after the timed ones, is written there.

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

	It("adds the searches of why not: measured against the search alone and the search explained", func() {
		plain := []byte(`{"q": "lamp", "facets": ["brand"]}`)
		explained := []byte(`{"q": "lamp", "facets": ["brand"], "explain": true}`)
		asked := []byte(`{"q": "lamp", "facets": ["brand"], "explain": {"objectID": "b299"}}`)
		a := whyNot(ci, `{"q": "lamp", "facets": ["brand"]}`, "b299")
		Expect(*a.WhyNot.Position).To(Equal(300))
		Expect(a.WhyNot.Reasons[0].Reason).To(Equal("ranked"))
		search := func(body []byte) func() {
			return func() {
				Expect(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, body).status).To(Equal(http.StatusOK))
			}
		}
		var alone, expl, with []measured
		for range whyNotBenchRuns {
			alone = append(alone, measure(search(plain)))
			expl = append(expl, measure(search(explained)))
			with = append(with, measure(search(asked)))
		}
		ma, me, mw := median(alone), median(expl), median(with)
		line := fmt.Sprintf("%d records, %d runs each, medians: search %v wall %v CPU; explained %v wall %v CPU; with why not %v wall %v CPU",
			whyNotBenchRecords, whyNotBenchRuns, ma.wall, ma.cpu, me.wall, me.cpu, mw.wall, mw.cpu)
		AddReportEntry("why not", line)
		GinkgoWriter.Println("why not: " + line)
		if path := os.Getenv("AISLE_BENCH_PROFILE"); path != "" {
			profile(path, whyNotBenchRuns, search(asked))
		}
	})
})

// profile writes a CPU profile of runs calls of fn to path.
func profile(path string, runs int, fn func()) {
	GinkgoHelper()
	f, err := os.Create(path)
	Expect(err).NotTo(HaveOccurred())
	defer func() { Expect(f.Close()).To(Succeed()) }()
	Expect(pprof.StartCPUProfile(f)).To(Succeed())
	defer pprof.StopCPUProfile()
	for range runs {
		fn()
	}
}
