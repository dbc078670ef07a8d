package events_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

var _ = Describe("Reader", Ordered, func() {
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC)
	idx := esnames.For("reader", "shop")
	var reader *events.Reader
	period, err := events.ParsePeriod("2026-01-30", "2026-03-02", now)
	if err != nil {
		panic(err)
	}
	view := func(day string, id string) events.EventDoc {
		t, _ := time.Parse(time.DateOnly, day)
		return events.EventDoc{Type: events.View, Timestamp: t.Add(time.Hour).UnixMilli(), ObjectID: id, Source: events.FromServer}
	}

	BeforeAll(func() {
		reader = events.NewReader(esClient, func() time.Time { return now })
		write(idx.Events(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), events.EventMapping, map[string]any{"j": view("2026-01-31", "p1")})
		write(idx.Events(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)), events.EventMapping, map[string]any{"m": view("2026-03-02", "p2")})
	})

	It("counts events across the monthly indices of the period, a missing month included", func() {
		s, err := reader.Stats(ctx, idx, period)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Totals).To(Equal(events.Totals{View: 2}))
		Expect(s.Daily).To(HaveLen(32))
		Expect(s.Daily[1]).To(Equal(events.Day{Date: "2026-01-31", Totals: events.Totals{View: 1}}))
		Expect(s.Devices).To(Equal([]events.KeyCount{{Key: "server", Count: 2}}))
		Expect(s.TopProducts.View[0].Record).To(MatchJSON("null"), "there is no catalog")
	})

	It("serves the same figures for a minute, while a fresh computation sees new events", func() {
		write(idx.Events(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)), events.EventMapping, map[string]any{"f": view("2026-02-14", "p1")})
		cached, err := reader.Stats(ctx, idx, period)
		Expect(err).NotTo(HaveOccurred())
		Expect(cached.Totals.View).To(BeEquivalentTo(2))
		fresh, err := reader.ComputeStats(ctx, idx, period)
		Expect(err).NotTo(HaveOccurred())
		Expect(fresh.Totals.View).To(BeEquivalentTo(3))
		Expect(fresh.TopProducts.View[0].ObjectID).To(Equal("p1"))
	})

	It("has an empty Bought together list for an index without orders", func() {
		l, err := reader.Together(ctx, idx, events.TogetherRequest{ObjectID: "p1", Limit: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(l).To(Equal(events.TogetherList{ObjectID: "p1", Hits: []events.TogetherHit{}}))
	})
})
