package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The client's figures for docs/benchmarks.md; `make bench` runs this spec (AISLE_BENCH=1).
var _ = Describe("Benchmark of the browser client", func() {
	BeforeEach(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("a benchmark: run with AISLE_BENCH=1 (make bench)")
		}
	})

	It("measures the client's size and the time a page spends in it per 100 events", func(ctx SpecContext) {
		cmd := exec.Command("node", "size.mjs")
		cmd.Dir = filepath.Join(root, "web")
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred())
		var size struct{ Source, Minified, Gzipped, Budget int }
		Expect(json.Unmarshal(out, &size)).To(Succeed())

		port := servePage()
		origin := fmt.Sprintf("http://localhost:%d", port)
		publicID := allowOrigin(ctx, origin)
		Eventually(func() int {
			return call(http.MethodPost, "/api/public/indexes/"+publicID+"/search", "", `{"q": "x"}`, map[string]string{"Origin": origin})
		}).Should(Equal(http.StatusOK))
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "bench", "rounds": 50, "shop": shop(origin, p, publicID, "on")})
		times := slices.Clone(res.PerHundred)
		slices.Sort(times)
		median, p90 := times[len(times)/2], times[len(times)*9/10]
		report := fmt.Sprintf("client size: %d B source, %d B minified, %d B minified+gzipped (budget %d B)\n"+
			"time in the client per 100 events (queue, store, build and start the request), %d rounds: median %.2f ms, p90 %.2f ms",
			size.Source, size.Minified, size.Gzipped, size.Budget, len(times), median, p90)
		AddReportEntry("browser client", report)
		fmt.Fprintln(GinkgoWriter, report)
	})
})
