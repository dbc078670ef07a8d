package apiserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/events"
)

// The ingestion benchmark of docs/benchmarks.md: server events, 200 per request, from 4
// concurrent clients through POST /events on the two listening replicas, against the
// same documents sent by 4 clients straight to _bulk of the monthly event index.
// AISLE_BENCH=1 runs it (see bench_test.go).
var _ = Describe("Benchmark of event ingestion", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the event benchmarks")
		}
	})

	It("times 80,000 server events through POST /events against the same documents sent straight to _bulk", func() {
		const clients, requests, perRequest = 4, 100, 200
		wire, docs := benchEvents(clients * requests * perRequest)
		run := func(send func(c int, from, to int)) measured {
			return concurrently(clients, requests, func(c, k int) {
				off := (c*requests + k) * perRequest
				send(c, off, off+perRequest)
			})
		}
		var direct, api []measured
		for round := 0; round < benchRounds(); round++ {
			ix := newEventIndex(fmt.Sprintf("ev-bench-%d", round), false)
			index := ix.names.Events(time.Now()) + "-direct"
			_, err := esClient.Indices.Create(index).Raw(bytes.NewReader([]byte(events.EventMapping))).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			direct = append(direct, run(func(_ int, from, to int) { directEvents(index, docs[from:to]) }))
			api = append(api, run(func(c int, from, to int) {
				r := call(c, http.MethodPost, ix.base+"/events", ix.key, map[string]any{"events": wire[from:to]})
				Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
			}))
			GinkgoWriter.Printf("round %d: direct _bulk %v (cpu %v), POST /events %v (cpu %v), load %s\n",
				round, direct[round].wall, direct[round].cpu, api[round].wall, api[round].cpu, loadAverage())
		}
		d, a := median(direct), median(api)
		n := float64(len(docs))
		// Refreshes and merges land in one round or the next, so rounds vary: the ratio is
		// the median of each round's pair, run back to back.
		ratios := make([]float64, len(direct))
		for i := range direct {
			ratios[i] = direct[i].wall.Seconds() / api[i].wall.Seconds()
		}
		slices.Sort(ratios)
		GinkgoWriter.Printf("events median: direct %.0f events/s (cpu %v), API %.0f events/s (cpu %v), API/direct %.2f (per round %.2f)\n",
			n/d.wall.Seconds(), d.cpu, n/a.wall.Seconds(), a.cpu, ratios[len(ratios)/2], ratios)
	})
})

// benchEvents makes n server events (views, clicks on search results and on lists,
// carts) and the documents POST /events stores for them.
func benchEvents(n int) ([]json.RawMessage, []events.EventDoc) {
	now := time.Now()
	wire := make([]json.RawMessage, n)
	docs := make([]events.EventDoc, n)
	for i := range wire {
		p := fmt.Sprintf("sku-%d", i%5000)
		var ev string
		switch i % 4 {
		case 0, 1:
			ev = fmt.Sprintf(`{"type": "view", "objectID": %q}`, p)
		case 2:
			ev = fmt.Sprintf(`{"type": "click", "objectID": %q, "position": %d, "query": "red running shoes"}`, p, 1+i%20)
		default:
			ev = fmt.Sprintf(`{"type": "addToCart", "currency": "EUR", "items": [{"objectID": %q, "quantity": 2, "price": 19.9}]}`, p)
		}
		wire[i] = json.RawMessage(ev)
		e, reason := events.Validate(wire[i], events.FromServer, now)
		Expect(reason).To(BeEmpty())
		docs[i] = e.Doc
	}
	return wire, docs
}

// directEvents sends docs to index in one _bulk and reads each item's status, as the
// API server does (es.BulkItems).
func directEvents(index string, docs []events.EventDoc) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, d := range docs {
		buf.WriteString(`{"index":{}}` + "\n")
		Expect(enc.Encode(d)).To(Succeed())
	}
	res, err := esClient.Bulk().Index(index).Raw(&buf).Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(docs), res, err)
	Expect(err).NotTo(HaveOccurred())
	for _, item := range items {
		Expect(item.Error).To(BeNil())
	}
}
