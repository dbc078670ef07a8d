package events_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
)

const controlMapping = `{"mappings":{"dynamic":false,"properties":{"kind":{"type":"keyword"},"createdAt":{"type":"long"}}}}`

// write creates index with mapping and writes docs by ID, refreshed.
func write(index, mapping string, docs map[string]any) {
	_, err := esClient.Indices.Create(index).Raw(strings.NewReader(mapping)).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	var body bytes.Buffer
	for id, d := range docs {
		src, err := json.Marshal(d)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		body.WriteString(`{"index":{"_id":"` + id + `"}}` + "\n" + string(src) + "\n")
	}
	res, err := esClient.Bulk().Index(index).Raw(&body).Refresh(refresh.True).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, res.Errors).To(BeFalse())
}

func indices(pattern string) []string {
	res, err := esClient.Indices.Get(pattern).AllowNoIndices(true).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for n := range res {
		out = append(out, n)
	}
	return out
}

func ids(index string) []string {
	res, err := esClient.Search().Index(index).Size(100).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, h := range res.Hits.Hits {
		out = append(out, *h.Id_)
	}
	return out
}

var _ = Describe("Retention", Ordered, func() {
	// The clock is passed in: the run is as of now, and nothing sleeps.
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	idx := esnames.For("retention", "shop")
	var rep events.RetentionReport
	ms := func(t time.Time) int64 { return t.UnixMilli() }
	browser := func(ts time.Time) events.OrderDoc {
		return events.OrderDoc{Timestamp: ms(ts), Products: []string{"p1"}, Source: events.FromBrowser, Counts: true, Visitor: "v-hash"}
	}

	BeforeAll(func() {
		for _, m := range []time.Time{
			time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC), // ended 2026-08-01, more than three months ago
			time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC),  // ends 2026-09-01, less than three months ago
			time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		} {
			write(idx.Events(m), events.EventMapping, map[string]any{"e": events.EventDoc{Type: events.View, Timestamp: ms(m), ObjectID: "p1"}})
			write(idx.Searches(m), searchlog.Mapping, map[string]any{"s": searchlog.Record{Day: m.Format(searchlog.DayLayout), Query: "shoes", Hits: 3}})
		}
		write(idx.Orders(), events.OrderMapping, map[string]any{
			"old":      events.OrderDoc{Timestamp: ms(now.Add(-events.OrderWindow - time.Minute)), Products: []string{"p1"}, Counts: true},
			"kept":     events.OrderDoc{Timestamp: ms(now.Add(-events.OrderWindow + time.Hour)), Products: []string{"p1"}, Counts: true},
			"browser3": browser(now.Add(-72 * time.Hour)),
			"browser1": browser(now.Add(-24 * time.Hour)),
		})
		yesterday, today := now.Add(-24*time.Hour), now.Add(-time.Hour)
		write(idx.Control(), controlMapping, map[string]any{
			"events.salt.2026-11-23":      map[string]any{"kind": events.KindSalt, "createdAt": ms(yesterday)},
			"events.salt.2026-11-24":      map[string]any{"kind": events.KindSalt, "createdAt": ms(today)},
			"events.visitor.2026-11-23.a": map[string]any{"kind": events.KindVisitor, "createdAt": ms(yesterday)},
			"events.visitor.2026-11-24.a": map[string]any{"kind": events.KindVisitor, "createdAt": ms(today)},
			"events.orderkey":             map[string]any{"kind": events.KindOrderKey, "createdAt": ms(now.AddDate(-2, 0, 0))},
		})
		var err error
		rep, err = (&events.Retention{ES: esClient}).Run(ctx, idx, now)
		Expect(err).NotTo(HaveOccurred())
		_, err = esClient.Indices.Refresh().Index(idx.Stem() + ".*").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
	})

	It("deletes event indices whose month ended more than three months ago", func() {
		Expect(rep.EventIndices).To(Equal([]string{idx.Stem() + ".events-2026.07"}))
		Expect(indices(idx.EventsPattern())).To(ConsistOf(idx.Stem()+".events-2026.08", idx.Stem()+".events-2026.11"))
	})

	It("deletes search log indices with the events', three months after their month", func() {
		Expect(rep.SearchIndices).To(Equal([]string{idx.Stem() + ".searches-2026.07"}))
		Expect(indices(idx.SearchesPattern())).To(ConsistOf(idx.Stem()+".searches-2026.08", idx.Stem()+".searches-2026.11"))
	})

	It("deletes orders older than 400 days", func() {
		Expect(rep.Orders).To(BeEquivalentTo(1))
		Expect(ids(idx.Orders())).To(ConsistOf("kept", "browser3", "browser1"))
	})

	It("removes the visitor hash from browser orders older than two days, and nothing else", func() {
		Expect(rep.VisitorsRemoved).To(Equal(1))
		res, err := esClient.Get(idx.Orders(), "browser3").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		want, _ := json.Marshal(events.OrderDoc{Timestamp: ms(now.Add(-72 * time.Hour)), Products: []string{"p1"}, Source: events.FromBrowser, Counts: true})
		Expect(string(res.Source_)).To(MatchJSON(want))
		res, err = esClient.Get(idx.Orders(), "browser1").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(res.Source_)).To(ContainSubstring(`"visitor":"v-hash"`))
	})

	It("deletes the salts and visitor counters of past days, and keeps the order key", func() {
		Expect(rep.ControlDocs).To(BeEquivalentTo(2))
		Expect(ids(idx.Control())).To(ConsistOf("events.salt.2026-11-24", "events.visitor.2026-11-24.a", "events.orderkey"))
	})

	It("runs again without finding anything, and on an index without events at all", func() {
		again, err := (&events.Retention{ES: esClient}).Run(ctx, idx, now)
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(events.RetentionReport{}))
		_, err = (&events.Retention{ES: esClient}).Run(ctx, esnames.For("retention", "empty"), now)
		Expect(err).NotTo(HaveOccurred())
	})
})
