package events_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/test/esbackend"
)

// benchNow is the benchmarks' "today": the three months before it hold the events.
var benchNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func benchClient(b *testing.B) *elasticsearch.TypedClient {
	b.Helper()
	url, stop, err := esbackend.Start(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = stop() })
	client, err := es.New(url)
	if err != nil {
		b.Fatal(err)
	}
	return client
}

// bulkLoad writes docs (an ID, or "" for none, and a source) to index in requests of
// 5,000, then refreshes.
func bulkLoad(b *testing.B, client *elasticsearch.TypedClient, index, mapping string, n int, doc func(i int) (string, any)) {
	b.Helper()
	ctx := context.Background()
	if _, err := client.Indices.Create(index).Raw(strings.NewReader(mapping)).Do(ctx); err != nil {
		b.Fatal(err)
	}
	for start := 0; start < n; start += 5000 {
		var buf bytes.Buffer
		for i := start; i < min(start+5000, n); i++ {
			id, src := doc(i)
			raw, _ := json.Marshal(src)
			if id == "" {
				buf.WriteString("{\"index\":{}}\n")
			} else {
				fmt.Fprintf(&buf, "{\"index\":{\"_id\":%q}}\n", id)
			}
			buf.Write(raw)
			buf.WriteByte('\n')
		}
		res, err := client.Bulk().Index(index).Raw(&buf).Do(ctx)
		if err != nil || res.Errors {
			b.Fatalf("bulk into %s: %v", index, err)
		}
	}
	if _, err := client.Indices.Refresh().Index(index).Do(ctx); err != nil {
		b.Fatal(err)
	}
}

// zipf draws product numbers 0..n-1, a few popular, most rare.
func zipf(seed uint64, n int) func() int {
	z := rand.NewZipf(rand.New(rand.NewPCG(seed, 1)), 1.1, 1, uint64(n-1))
	return func() int { return int(z.Uint64()) }
}

// benchEvent is event i of n spread evenly over the 92 days before benchNow: 60% views,
// 20% clicks, 10% carts, 5% purchases, the rest cancels and dropped events.
func benchEvent(i, n int, product func() int, r *rand.Rand) events.EventDoc {
	ts := benchNow.Add(-time.Duration(float64(92*24*time.Hour) * float64(i) / float64(n)))
	d := events.EventDoc{Timestamp: ts.UnixMilli(), Source: events.FromBrowser, Device: []string{"desktop", "mobile", "tablet"}[r.IntN(3)],
		Country: []string{"FR", "DE", "US", "GB", "ES"}[r.IntN(5)], Site: "shop.example"}
	item := []events.Item{{ObjectID: fmt.Sprintf("p%d", product()), Quantity: 1}}
	switch p := r.IntN(100); {
	case p < 60:
		d.Type, d.ObjectID = events.View, item[0].ObjectID
	case p < 80:
		d.Type, d.ObjectID, d.Position, d.Query = events.Click, item[0].ObjectID, 1+r.IntN(20), fmt.Sprintf("query %d", product()%500)
	case p < 90:
		d.Type, d.Items, d.Currency = events.AddToCart, item, "EUR"
	case p < 95:
		d.Type, d.Items, d.Currency, d.Revenue, d.Units = events.Purchase, item, "EUR", float64(1+r.IntN(200)), 1
	case p < 97:
		d.Type, d.Source = events.Cancel, events.FromServer
	default:
		d.Type, d.Reason, d.Count = events.NotRecorded, "crawler", 1
	}
	return d
}

// settle waits until the engine, which runs in this process, has merged the segments
// the load left (the process uses under a tenth of a core for two seconds in a row), so
// that the timed runs measure reads and not a burst of writes no shop sends at once. It
// returns how long that took; two minutes at most.
func settle(b *testing.B) time.Duration {
	b.Helper()
	start, quiet := time.Now(), 0
	for quiet < 2 && time.Since(start) < 2*time.Minute {
		before := cpuTime(b)
		time.Sleep(time.Second)
		if cpuTime(b)-before < 100*time.Millisecond {
			quiet++
		} else {
			quiet = 0
		}
	}
	return time.Since(start)
}

// cpuTime is the CPU time this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// percentiles reports p50 and p95 of durations in milliseconds.
func percentiles(b *testing.B, ds []time.Duration, prefix string) {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), prefix+"p50_ms")
	b.ReportMetric(at(0.95), prefix+"p95_ms")
}

// BenchmarkStats computes the Events page's figures (ComputeStats, without the API
// server's minute cache) over one million events spread over three months in their
// monthly indices, for the last 30 and the last 92 days, 20 timed runs each after two
// warm-up runs, two ways:
//   - cold: each run asks for another period (ending a day earlier), so the engine's
//     request cache holds nothing for it and every event is counted;
//   - live: the same period while events arrive, one written to the current month and
//     refreshed before each run, so that month is counted again and the others come
//     from the request cache, as on a shop's Events page.
func BenchmarkStats(b *testing.B) {
	const n = 1_000_000
	client := benchClient(b)
	idx := esnames.For("bench", "shop")
	product, r := zipf(1, 5000), rand.New(rand.NewPCG(2, 2))
	docs := make([]events.EventDoc, n)
	for i := range docs {
		docs[i] = benchEvent(i, n, product, r)
	}
	months := map[string][]int{}
	for i, d := range docs {
		name := idx.Events(time.UnixMilli(d.Timestamp))
		months[name] = append(months[name], i)
	}
	t0 := time.Now()
	for name, is := range months {
		bulkLoad(b, client, name, events.EventMapping, len(is), func(k int) (string, any) { return "", docs[is[k]] })
	}
	b.ReportMetric(time.Since(t0).Seconds(), "load_s")
	b.ReportMetric(settle(b).Seconds(), "settle_s")
	reader := events.NewReader(client, func() time.Time { return benchNow })
	for _, days := range []int{30, 92} {
		period := func(earlier int) events.Period {
			end := benchNow.AddDate(0, 0, -earlier)
			p, err := events.ParsePeriod(end.AddDate(0, 0, 1-days).Format(time.DateOnly), end.Format(time.DateOnly), benchNow)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}
		cold := timeStats(b, reader, idx, func(i int) events.Period { return period(i) })
		percentiles(b, cold, fmt.Sprintf("%dd_cold_", days))
		live := timeStats(b, reader, idx, func(i int) events.Period {
			arrive(b, client, idx, docs[r.IntN(len(docs))])
			return period(0)
		})
		percentiles(b, live, fmt.Sprintf("%dd_live_", days))
	}
}

// timeStats times 20 computations of the periods next gives, after two warm-up ones.
func timeStats(b *testing.B, reader *events.Reader, idx esnames.Index, next func(i int) events.Period) []time.Duration {
	var ds []time.Duration
	for i := 0; i < 22; i++ {
		p := next(i)
		t := time.Now()
		s, err := reader.ComputeStats(context.Background(), idx, p)
		if err != nil {
			b.Fatal(err)
		}
		if s.Totals.View == 0 {
			b.Fatal("no views counted")
		}
		if i >= 2 { // the first runs build the engine's per-segment columns
			ds = append(ds, time.Since(t))
		}
	}
	return ds
}

// arrive writes an event of today into its monthly index, refreshed: what a shop's
// pages keep doing while someone looks at the Events page.
func arrive(b *testing.B, client *elasticsearch.TypedClient, idx esnames.Index, d events.EventDoc) {
	d.Timestamp = benchNow.UnixMilli()
	raw, err := json.Marshal(d)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := client.Index(idx.Events(benchNow)).Raw(bytes.NewReader(raw)).Refresh(refresh.True).Do(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTogether asks for the Bought together lists of 200 products (drawn like the
// orders' products: popular ones more often) over 100,000 orders of 1 to 6 products
// from a catalog of 5,000 records, and reports p50/p95.
func BenchmarkTogether(b *testing.B) {
	const orders, catalog = 100_000, 5000
	client := benchClient(b)
	idx := esnames.For("bench", "shop")
	bulkLoad(b, client, idx.Alias(), `{}`, catalog, func(i int) (string, any) {
		return fmt.Sprintf("p%d", i), map[string]any{"objectID": fmt.Sprintf("p%d", i), "name": fmt.Sprintf("Product %d", i), "price": i % 100}
	})
	product, r := zipf(3, catalog), rand.New(rand.NewPCG(4, 4))
	bulkLoad(b, client, idx.Orders(), events.OrderMapping, orders, func(i int) (string, any) {
		ps := map[string]bool{}
		for k := 0; k < 1+r.IntN(6); k++ {
			ps[fmt.Sprintf("p%d", product())] = true
		}
		o := events.OrderDoc{Timestamp: benchNow.Add(-time.Duration(r.IntN(399*24)) * time.Hour).UnixMilli(), Source: events.FromServer, Counts: true}
		for p := range ps {
			o.Products = append(o.Products, p)
		}
		return fmt.Sprintf("o%d", i), o
	})
	settle(b)
	reader := events.NewReader(client, func() time.Time { return benchNow })
	var ds []time.Duration
	for i := 0; i < 220; i++ {
		req := events.TogetherRequest{ObjectID: fmt.Sprintf("p%d", product()), Limit: events.DefaultTogetherLimit}
		t := time.Now()
		if _, err := reader.Together(context.Background(), idx, req); err != nil {
			b.Fatal(err)
		}
		if i >= 20 {
			ds = append(ds, time.Since(t))
		}
	}
	percentiles(b, ds, "")
}
