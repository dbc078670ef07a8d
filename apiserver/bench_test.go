package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/test/benchdata"
)

// The catalog benchmarks of docs/benchmarks.md, end to end: real HTTP requests with a
// bearer key to a listening replica, against the same documents sent straight to the
// engine. They run only with AISLE_BENCH=1 (minutes of work):
//
//	AISLE_BENCH=1 go test -count=1 -timeout=60m ./apiserver/ -args -ginkgo.focus=Benchmark -ginkgo.v
//
// Direct and API runs alternate, so that the load of the shared machine falls on both
// alike; medians are reported, with wall time and the CPU time of this process (engine,
// replicas and clients all run in it).

// measured is the wall and CPU time of one run.
type measured struct{ wall, cpu time.Duration }

func measure(fn func()) measured {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	c0, t0 := cpu(), time.Now()
	fn()
	return measured{wall: time.Since(t0), cpu: cpu() - c0}
}

func median(ms []measured) measured {
	w := make([]time.Duration, len(ms))
	c := make([]time.Duration, len(ms))
	for i, m := range ms {
		w[i], c[i] = m.wall, m.cpu
	}
	slices.Sort(w)
	slices.Sort(c)
	return measured{wall: w[len(w)/2], cpu: c[len(c)/2]}
}

// directIndex creates a physical index with the mapping the operator builds, as the
// target of direct _bulk requests.
func directIndex(name string) string {
	body, err := indexmapping.Build(createdSettings())
	Expect(err).NotTo(HaveOccurred())
	raw, err := body.JSON()
	Expect(err).NotTo(HaveOccurred())
	_, err = esClient.Indices.Create(name).Raw(bytes.NewReader(raw)).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	return name
}

// directBulk sends docs to index in 1,000-document _bulk requests, each waiting for a
// refresh when wait is set.
func directBulk(index string, docs []json.RawMessage, wait bool) {
	for start := 0; start < len(docs); start += 1000 {
		var buf bytes.Buffer
		for _, d := range docs[start:min(start+1000, len(docs))] {
			var id struct {
				ObjectID string `json:"objectID"`
			}
			_ = json.Unmarshal(d, &id)
			fmt.Fprintf(&buf, "{\"index\":{\"_id\":%q}}\n%s\n", id.ObjectID, d)
		}
		req := esClient.Bulk().Index(index).Raw(&buf)
		if wait {
			req = req.Refresh(refresh.Waitfor)
		}
		res, err := req.Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeFalse())
	}
}

func benchRounds() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("AISLE_BENCH_ROUNDS"), &n); err != nil || n < 1 {
		return 3
	}
	return n
}

func loadAverage() string {
	raw, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(raw))[:3], " ")
}

var _ = Describe("Benchmark of the catalog write path", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the catalog benchmarks")
		}
	})

	It("times PUT /records of 100,000 records of about 1 KB against the same documents sent straight to _bulk", func() {
		docs := benchdata.Products(100_000)
		body, err := json.Marshal(map[string]any{"records": docs})
		Expect(err).NotTo(HaveOccurred())
		var direct, api []measured
		for round := 0; round < benchRounds(); round++ {
			index := directIndex(fmt.Sprintf("bench-direct-%d", round))
			direct = append(direct, measure(func() {
				directBulk(index, docs, false)
				_, err := esClient.Indices.Refresh().Index(index).Do(ctx)
				Expect(err).NotTo(HaveOccurred())
			}))
			_, _ = esClient.Indices.Delete(index).Do(ctx)
			ci := newCatalogIndex()
			api = append(api, measure(func() {
				r := call(0, "PUT", ci.base+"/records", ci.writeKey, body)
				Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
			}))
			Expect(searchCount(ci)).To(BeEquivalentTo(100_000))
			GinkgoWriter.Printf("round %d: direct %v (cpu %v), PUT /records %v (cpu %v), load %s\n",
				round, direct[round].wall, direct[round].cpu, api[round].wall, api[round].cpu, loadAverage())
		}
		d, a := median(direct), median(api)
		GinkgoWriter.Printf("PUT median: direct %v (cpu %v), API %v (cpu %v), wall ratio %.2f, cpu ratio %.2f\n",
			d.wall, d.cpu, a.wall, a.cpu, a.wall.Seconds()/d.wall.Seconds(), a.cpu.Seconds()/d.cpu.Seconds())
	})

	It("measures POST /records throughput with 1,000-record batches at 4 concurrent clients", func() {
		const clients, batches = 4, 10
		docs := benchdata.Products(clients * batches * 1000)
		run := func(send func(c int, part []json.RawMessage)) measured {
			return concurrently(clients, batches, func(c, k int) {
				off := (c*batches + k) * 1000
				send(c, docs[off:off+1000])
			})
		}
		var direct, api []measured
		for round := 0; round < benchRounds(); round++ {
			index := directIndex(fmt.Sprintf("bench-post-%d", round))
			direct = append(direct, run(func(_ int, part []json.RawMessage) { directBulk(index, part, true) }))
			_, _ = esClient.Indices.Delete(index).Do(ctx)
			ci := newCatalogIndex()
			api = append(api, run(func(c int, part []json.RawMessage) {
				r := call(c, "POST", ci.base+"/records", ci.writeKey, map[string]any{"records": part})
				Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
			}))
			GinkgoWriter.Printf("round %d: direct _bulk?refresh=wait_for %v (cpu %v), POST /records %v (cpu %v), load %s\n",
				round, direct[round].wall, direct[round].cpu, api[round].wall, api[round].cpu, loadAverage())
		}
		d, a := median(direct), median(api)
		n := float64(len(docs))
		GinkgoWriter.Printf("POST median: direct %.0f records/s (cpu %v), API %.0f records/s (cpu %v)\n",
			n/d.wall.Seconds(), d.cpu, n/a.wall.Seconds(), a.cpu)
	})
})

// concurrently times clients sending batches each, through send(client, batch).
func concurrently(clients, batches int, send func(c, k int)) measured {
	return measure(func() {
		var wg sync.WaitGroup
		for c := 0; c < clients; c++ {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				for k := 0; k < batches; k++ {
					send(c, k)
				}
			}()
		}
		wg.Wait()
	})
}

// createdSettings are the settings createIndex gives every index of the specs.
func createdSettings() searchv1alpha1.IndexSettings {
	return searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}},
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	}
}
