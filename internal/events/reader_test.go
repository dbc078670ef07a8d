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

	It("ranks Bought together by shared orders, leaving out cancelled orders and products not in the catalog", func() {
		order := func(id string, cancelled bool, ps ...string) events.OrderDoc {
			return events.OrderDoc{Timestamp: now.Add(-24 * time.Hour).UnixMilli(), Products: ps, Source: events.FromServer, Counts: true, Cancelled: cancelled}
		}
		write(idx.Orders(), events.OrderMapping, map[string]any{
			"a": order("a", false, "p1", "p2", "p3"), "b": order("b", false, "p1", "p2"),
			"c": order("c", false, "p1", "p4", "gone"), "d": order("d", true, "p1", "p4", "p5"),
		})
		write(idx.Alias(), `{}`, map[string]any{"p1": map[string]any{"n": 1}, "p2": map[string]any{"n": 2}, "p3": map[string]any{"n": 3},
			"p4": map[string]any{"n": 4}, "p5": map[string]any{"n": 5}})
		l, err := reader.Together(ctx, idx, events.TogetherRequest{ObjectID: "p1", Limit: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(l.Orders).To(BeEquivalentTo(3))
		var got []string
		for _, h := range l.Hits {
			got = append(got, h.ObjectID+":"+string(h.Record))
		}
		Expect(got).To(Equal([]string{`p2:{"n":2}`, `p3:{"n":3}`, `p4:{"n":4}`}))
		Expect(l.Hits[0].SharedOrders).To(BeEquivalentTo(2))
	})

	DescribeTable("answers the figures of any period ParsePeriod accepts, at the ends of the calendar too (issue 15)",
		func(from, to string) {
			p, err := events.ParsePeriod(from, to, now)
			Expect(err).NotTo(HaveOccurred())
			s, err := reader.ComputeStats(ctx, idx, p)
			Expect(err).NotTo(HaveOccurred())
			Expect(s.Daily).To(HaveLen(p.Days()))
			Expect(s.Totals).To(Equal(events.Totals{}))
		},
		Entry("the first year", "0000-01-01", "0000-12-31"),
		Entry("the last year", "9999-01-01", "9999-12-31"),
		Entry("before 1970", "1969-12-01", "1970-01-31"),
	)
})
