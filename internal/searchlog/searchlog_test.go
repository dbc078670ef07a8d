package searchlog_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchlog"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// dropped reads the recorder's metric of searches dropped for reason.
func dropped(r *searchlog.Recorder, reason string) float64 {
	reg := prometheus.NewRegistry()
	reg.MustRegister(r.Collectors()...)
	families, err := reg.Gather()
	Expect(err).NotTo(HaveOccurred())
	for _, f := range families {
		if f.GetName() != "aisle_searchlog_dropped_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			if m.GetLabel()[0].GetValue() == reason {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

// logged returns the records of the search log index, refreshed first.
func logged(index string) []searchlog.Record {
	_, err := esClient.Indices.Refresh().Index(index).Do(ctx)
	if err != nil {
		return nil
	}
	res, err := esClient.Search().Index(index).Size(100).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	out := []searchlog.Record{}
	for _, h := range res.Hits.Hits {
		var r searchlog.Record
		Expect(json.Unmarshal(h.Source_, &r)).To(Succeed())
		out = append(out, r)
	}
	return out
}

var _ = Describe("A search's record", func() {
	It("keeps the day in UTC and the query as a click's query is kept: lowercase, eight words", func() {
		at := time.Date(2026, 11, 30, 23, 30, 0, 0, time.FixedZone("x", -3600))
		r := searchlog.NewRecord(searchlog.Search{Q: "  Red   Running SHOES for trail and road in winter ", Hits: 7, Faceted: true, At: at})
		Expect(r).To(Equal(searchlog.Record{Day: "2026-12-01", Query: "red running shoes for trail and road in", Hits: 7, Faceted: true}))
	})

	It("goes to the monthly index of its SearchIndex", func() {
		s := searchlog.Search{Index: esnames.For("shop", "products"), At: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}
		Expect(searchlog.IndexName(s)).To(Equal("aisle.shop.products.searches-2026.03"))
	})
})

var _ = Describe("The recorder", func() {
	It("writes queued searches in the background, with nothing about who searched", func() {
		idx := esnames.For("searchlog", "written")
		r := searchlog.New(esClient, searchlog.Config{Interval: 20 * time.Millisecond, Logger: quiet})
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		go r.Run(runCtx)
		now := time.Now()
		r.Record(searchlog.Search{Index: idx, UID: "u1", Q: "Shoes", Hits: 3, Filtered: true, Public: true, At: now})
		r.Record(searchlog.Search{Index: idx, UID: "u1", Q: "", Hits: 10, At: now})
		Eventually(func() []searchlog.Record { return logged(idx.Searches(now)) }).Should(ConsistOf(
			searchlog.Record{Day: now.UTC().Format(searchlog.DayLayout), Query: "shoes", Hits: 3, Filtered: true, Public: true},
			searchlog.Record{Day: now.UTC().Format(searchlog.DayLayout), Query: "", Hits: 10},
		))
		mapping, err := esClient.Indices.GetMapping().Index(idx.Searches(now)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(mapping[idx.Searches(now)].Mappings.Properties).To(HaveLen(6))
	})

	It("writes what is still queued when it stops", func() {
		idx := esnames.For("searchlog", "stopped")
		r := searchlog.New(esClient, searchlog.Config{Interval: time.Hour, Logger: quiet})
		now := time.Now()
		r.Record(searchlog.Search{Index: idx, UID: "u1", Q: "boots", Hits: 1, At: now})
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { r.Run(runCtx); close(done) }()
		stop()
		Eventually(done).Should(BeClosed())
		Expect(logged(idx.Searches(now))).To(HaveLen(1))
	})

	It("drops and counts what does not fit in its queue, never waiting", func() {
		r := searchlog.New(esClient, searchlog.Config{Buffer: 2, Logger: quiet})
		for range 5 {
			r.Record(searchlog.Search{Index: esnames.For("searchlog", "full"), Q: "x", At: time.Now()})
		}
		Expect(dropped(r, searchlog.DropFull)).To(BeEquivalentTo(3))
	})

	It("drops and counts what the backend does not take in time", func() {
		down, err := es.New("http://127.0.0.1:1")
		Expect(err).NotTo(HaveOccurred())
		r := searchlog.New(down, searchlog.Config{Interval: 10 * time.Millisecond, Timeout: 200 * time.Millisecond, Logger: quiet})
		runCtx, stop := context.WithCancel(ctx)
		defer stop()
		go r.Run(runCtx)
		r.Record(searchlog.Search{Index: esnames.For("searchlog", "down"), Q: "x", At: time.Now()})
		Eventually(func() float64 { return dropped(r, searchlog.DropFailed) }).Should(BeEquivalentTo(1))
	})

	It("records nothing when there is none", func() {
		var r *searchlog.Recorder
		Expect(func() { r.Record(searchlog.Search{Q: "x"}) }).NotTo(Panic())
	})
})
