package apiserver_test

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/events"
)

func at(date string, hour int) int64 {
	t, err := time.Parse(time.DateOnly, date)
	Expect(err).NotTo(HaveOccurred())
	return t.Add(time.Duration(hour) * time.Hour).UnixMilli()
}

func price(p float64) *float64 { return &p }

// statsEvents are the seeded events of February and March 2026; the period asked for
// is 2026-02-10 to 2026-03-11, so the first and last are outside it.
func statsEvents() []seedDoc {
	browser := func(d events.EventDoc) events.EventDoc {
		d.Source, d.Site, d.Country = events.FromBrowser, "shop.example", "FR"
		if d.Device == "" {
			d.Device = "mobile"
		}
		return d
	}
	server := func(d events.EventDoc) events.EventDoc { d.Source = events.FromServer; return d }
	return []seedDoc{
		{"", browser(events.EventDoc{Type: events.View, Timestamp: at("2026-02-09", 23), ObjectID: "p3"})},
		{"", browser(events.EventDoc{Type: events.View, Timestamp: at("2026-02-10", 0), ObjectID: "p1"})},
		{"", browser(events.EventDoc{Type: events.View, Timestamp: at("2026-02-10", 9), ObjectID: "p1"})},
		{"", browser(events.EventDoc{Type: events.View, Timestamp: at("2026-03-01", 9), ObjectID: "p1", Device: "desktop"})},
		{"", server(events.EventDoc{Type: events.View, Timestamp: at("2026-03-11", 23), ObjectID: "p2"})},
		{"", browser(events.EventDoc{Type: events.Click, Timestamp: at("2026-02-10", 10), ObjectID: "p1", Position: 1, Query: "red shoe"})},
		{"", browser(events.EventDoc{Type: events.Click, Timestamp: at("2026-02-11", 10), ObjectID: "p1", Position: 1, Query: "red shoe"})},
		{"", browser(events.EventDoc{Type: events.Click, Timestamp: at("2026-02-11", 11), ObjectID: "p2", Position: 3, List: events.Together, From: "p1"})},
		{"", browser(events.EventDoc{Type: events.AddToCart, Timestamp: at("2026-02-11", 12), Currency: "EUR",
			Items: []events.Item{{ObjectID: "p1", Quantity: 2, Price: price(10)}, {ObjectID: "p6"}}})},
		{"k1", server(events.EventDoc{Type: events.Purchase, Timestamp: at("2026-02-12", 8), Currency: "EUR", Revenue: 77.5, Units: 3,
			Items: []events.Item{{ObjectID: "p1", Price: price(59.5)}, {ObjectID: "p6", Quantity: 2, Price: price(9)}}})},
		{"k2", server(events.EventDoc{Type: events.Purchase, Timestamp: at("2026-03-02", 8), Currency: "USD", Revenue: 499, Units: 1,
			Items: []events.Item{{ObjectID: "p3", Price: price(499)}}})},
		{"k3", server(events.EventDoc{Type: events.Purchase, Timestamp: at("2026-03-03", 8), Currency: "EUR", Revenue: 100, Units: 1,
			Cancelled: true, Items: []events.Item{{ObjectID: "p5", Price: price(100)}}})},
		{"", server(events.EventDoc{Type: events.Cancel, Timestamp: at("2026-03-04", 8)})},
		{"", browser(events.EventDoc{Type: events.NotRecorded, Timestamp: at("2026-02-15", 8), Reason: "crawler", Count: 5})},
		{"", browser(events.EventDoc{Type: events.NotRecorded, Timestamp: at("2026-03-05", 8), Reason: "automation", Count: 2})},
		{"", browser(events.EventDoc{Type: events.NotRecorded, Timestamp: at("2026-03-12", 8), Reason: "crawler", Count: 9})},
	}
}

func getStats(query string) events.Stats {
	var s events.Stats
	getOK("/api/teams/acme/indexes/catalog/events/stats"+query, &s)
	return s
}

var _ = Describe("Events statistics", Ordered, func() {
	var stats events.Stats

	BeforeAll(func() {
		for _, d := range statsEvents() {
			ts := time.UnixMilli(d.doc.(events.EventDoc).Timestamp)
			seed(catalogNames.Events(ts), events.EventMapping, d)
		}
		// Products of their own: the Bought together specs count the orders of p1 to p9
		// in the same order index, in whatever order the containers run.
		seed(catalogNames.Orders(), events.OrderMapping,
			seedDoc{"k1", order(time.UnixMilli(at("2026-02-12", 8)), "k-a", "k-b")},
			seedDoc{"k2", order(time.UnixMilli(at("2026-03-02", 8)), "k-c")},
			seedDoc{"k3", events.OrderDoc{Timestamp: at("2026-03-03", 8), Products: []string{"k-d"}, Source: events.FromServer, Counts: true, Cancelled: true}},
			seedDoc{"k4", order(time.UnixMilli(at("2026-03-12", 8)), "k-d")},
		)
		stats = getStats("?from=2026-02-10&to=2026-03-11")
	})

	DescribeTable("counts the seeded events of the period",
		func(figure func() any, want any) {
			Expect(figure()).To(Equal(want))
		},
		Entry("the period", func() any { return stats.From + ".." + stats.To }, "2026-02-10..2026-03-11"),
		Entry("totals per type, cancelled purchases left out", func() any { return stats.Totals },
			events.Totals{View: 4, Click: 3, AddToCart: 1, Purchase: 2, Cancel: 1}),
		Entry("not recorded, by reason", func() any { return stats.NotRecorded },
			events.NotRecordedCounts{Total: 7, ByReason: map[string]int64{"crawler": 5, "automation": 2}}),
		Entry("orders and cancelled orders", func() any { return []int64{stats.Orders, stats.CancelledOrders} }, []int64{3, 1}),
		Entry("revenue per currency, largest first", func() any { return stats.Revenue },
			[]events.Revenue{{Currency: "USD", Amount: 499, Purchases: 1}, {Currency: "EUR", Amount: 77.5, Purchases: 1}}),
		Entry("30 days in the series", func() any { return len(stats.Daily) }, 30),
		Entry("the first day", func() any { return stats.Daily[0] }, events.Day{Date: "2026-02-10", Totals: events.Totals{View: 2, Click: 1}}),
		Entry("the second day", func() any { return stats.Daily[1] }, events.Day{Date: "2026-02-11", Totals: events.Totals{Click: 2, AddToCart: 1}}),
		Entry("an empty day", func() any { return stats.Daily[3] }, events.Day{Date: "2026-02-13"}),
		Entry("the last day", func() any { return stats.Daily[29] }, events.Day{Date: "2026-03-11", Totals: events.Totals{View: 1}}),
		Entry("top viewed", func() any { return counts(stats.TopProducts.View) }, []string{"p1:3", "p2:1"}),
		Entry("top clicked", func() any { return counts(stats.TopProducts.Click) }, []string{"p1:2", "p2:1"}),
		Entry("top carted", func() any { return counts(stats.TopProducts.AddToCart) }, []string{"p1:1", "p6:1"}),
		Entry("top bought", func() any { return counts(stats.TopProducts.Purchase) }, []string{"p1:1", "p3:1", "p6:1"}),
		Entry("clicked queries", func() any { return stats.TopQueries }, []events.QueryCount{{Query: "red shoe", Clicks: 2}}),
		Entry("clicks by list", func() any { return stats.ClicksByList },
			[]events.KeyCount{{Key: "search", Count: 2}, {Key: "together", Count: 1}}),
		Entry("each list's clicks and most clicked products, every list present", func() any {
			out := []string{}
			for _, l := range stats.Lists {
				out = append(out, fmt.Sprintf("%s:%d %v", l.List, l.Clicks, counts(l.Products)))
			}
			return out
		}, []string{"together:1 [p2:1]", "goesWith:0 []", "similar:0 []", "trending:0 []"}),
		Entry("clicks by position", func() any { return stats.ClicksByPosition },
			[]events.PositionCount{{Position: 1, Clicks: 2}, {Position: 3, Clicks: 1}}),
		Entry("countries", func() any { return stats.Countries },
			[]events.KeyCount{{Key: "FR", Count: 7}, {Key: "", Count: 4}}),
		Entry("devices", func() any { return stats.Devices },
			[]events.KeyCount{{Key: "mobile", Count: 6}, {Key: "server", Count: 4}, {Key: "desktop", Count: 1}}),
		Entry("sites", func() any { return stats.Sites },
			[]events.KeyCount{{Key: "shop.example", Count: 7}, {Key: "server", Count: 4}}),
	)

	It("attaches catalog records to top products, without the version field", func() {
		Expect(string(stats.TopProducts.View[0].Record)).To(MatchJSON(`{"objectID": "p1", "name": "Red running shoe", "description": "Light shoe for road running", "brand": "Acme", "price": 59.5, "inStock": true, "popularity": 10, "specs": {"color": "red"}, "createdAt": "2024-01-05T10:00:00Z"}`))
		Expect(stats.GeneratedAt).NotTo(BeEmpty())
	})

	It("answers a period without events with zeros and empty days", func() {
		s := getStats("?from=2024-01-01&to=2024-01-02")
		Expect(s.Totals).To(BeZero())
		Expect(s.Daily).To(Equal([]events.Day{{Date: "2024-01-01"}, {Date: "2024-01-02"}}))
		Expect(s.Revenue).To(BeEmpty())
	})

	DescribeTable("refuses bad periods with 400",
		func(query, message string) {
			rec := get("/api/teams/acme/indexes/catalog/events/stats"+query, keys["catalog"])
			Expect(rec.Code).To(Equal(http.StatusBadRequest))
			Expect(rec.Body.String()).To(MatchJSON(errorBody("invalid parameter: " + message)))
		},
		Entry("a malformed date", "?from=10/02/2026", "from must be a date written YYYY-MM-DD"),
		Entry("from after to", "?from=2026-03-02&to=2026-03-01", "from (2026-03-02) must not be after to (2026-03-01)"),
		Entry("more than 400 days", "?from=2025-01-01&to=2026-03-01", "from and to must be at most 400 days apart"),
	)
})

func counts(ps []events.ProductCount) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ObjectID + ":" + strconv.FormatInt(p.Count, 10)
	}
	return out
}
