package apiserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/test/benchdata"
)

// The recommendation benchmark of docs/benchmarks.md: the planted shop of
// test/benchdata (about 20,000 products, 100,000 past orders sent through POST
// /past-orders), the last item of 5,000 orders held out, and each list asked through the
// API (a listening replica, real HTTP) for the order's first item. AISLE_BENCH=1 runs it
// (see bench_test.go).

const (
	recsOrders   = 100_000
	recsHeldOut  = 5_000
	recsSimilar  = 500
	recsEvents   = 100_000
	recsListSize = 10
)

var recsSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"category", "brand", "inStock"},
	FacetFields:      []searchv1alpha1.FieldPath{"category", "brand"},
	Recommendations:  &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"},
}

// heldOut is a test order: its first item asks, its last was held out.
type heldOut struct{ query, target string }

// recsClient reads lists of the bench index from the first replica over HTTP.
type recsClient struct {
	http *http.Client
	base string
	key  string
}

// list returns the IDs a list answers and how long the request took.
func (c recsClient) list(path string) ([]string, time.Duration) {
	GinkgoHelper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, replicas[0]+c.base+path, nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+c.key)
	start := time.Now()
	res, err := c.http.Do(req)
	Expect(err).NotTo(HaveOccurred())
	body, err := io.ReadAll(res.Body)
	took := time.Since(start)
	res.Body.Close()
	Expect(err).NotTo(HaveOccurred())
	Expect(res.StatusCode).To(Equal(http.StatusOK), string(body))
	var l struct {
		Hits []struct {
			ObjectID string `json:"objectID"`
			Reason   string `json:"reason"`
		} `json:"hits"`
	}
	Expect(json.Unmarshal(body, &l)).To(Succeed())
	ids := make([]string, len(l.Hits))
	for i, h := range l.Hits {
		ids[i] = h.ObjectID + "|" + h.Reason
	}
	return ids, took
}

// sendOrders imports orders through POST /past-orders, 200 a request, from four clients.
func sendOrders(c recsClient, orders [][]string) {
	now := time.Now()
	var wg sync.WaitGroup
	batches := make(chan int)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			for start := range batches {
				body := ordersBody(orders, start, min(start+200, len(orders)), now)
				r := call(0, http.MethodPost, c.base+"/past-orders", c.key, []byte(body))
				Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
			}
		}()
	}
	for start := 0; start < len(orders); start += 200 {
		batches <- start
	}
	close(batches)
	wg.Wait()
}

// ordersBody renders orders[from:to], order i placed i minutes apart over 300 days.
func ordersBody(orders [][]string, from, to int, now time.Time) string {
	parts := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		items := make([]string, len(orders[i]))
		for j, p := range orders[i] {
			items[j] = fmt.Sprintf(`{"objectID": %q}`, p)
		}
		ts := now.Add(-time.Duration(len(orders)-i) * 300 * 24 * time.Hour / time.Duration(len(orders))).UnixMilli()
		parts = append(parts, fmt.Sprintf(`{"orderID": "bench-%d", "timestamp": %d, "items": [%s]}`, i, ts, strings.Join(items, ",")))
	}
	return `{"orders": [` + strings.Join(parts, ",") + `]}`
}

// holdOut picks n orders of two items or more and removes their last item.
func holdOut(orders [][]string, n int) ([][]string, []heldOut) {
	rng := rand.New(rand.NewPCG(7, 11))
	train := slices.Clone(orders)
	var test []heldOut
	for _, i := range rng.Perm(len(orders)) {
		if len(test) == n {
			break
		}
		if o := orders[i]; len(o) >= 2 {
			test = append(test, heldOut{query: o[0], target: o[len(o)-1]})
			train[i] = o[:len(o)-1]
		}
	}
	return train, test
}

// mostOrdered is the baseline: the products of most orders, best first.
func mostOrdered(orders [][]string) []string {
	counts := map[string]int{}
	for _, o := range orders {
		for _, p := range o {
			counts[p]++
		}
	}
	ids := make([]string, 0, len(counts))
	for p := range counts {
		ids = append(ids, p)
	}
	sort.Slice(ids, func(i, j int) bool {
		if counts[ids[i]] != counts[ids[j]] {
			return counts[ids[i]] > counts[ids[j]]
		}
		return ids[i] < ids[j]
	})
	return ids[:recsListSize+1]
}

// seedTrendingEvents writes events of the last 35 days straight into the engine, as the
// events service stores them: products of random orders, and 40 products rising this week.
func seedTrendingEvents(names esnames.Index, orders [][]string) {
	rng := rand.New(rand.NewPCG(3, 9))
	now := time.Now()
	docs := make([]seedDoc, 0, 5000)
	flush := func() {
		byIndex := map[string][]seedDoc{}
		for _, d := range docs {
			ev := d.doc.(events.EventDoc)
			byIndex[names.Events(time.UnixMilli(ev.Timestamp))] = append(byIndex[names.Events(time.UnixMilli(ev.Timestamp))], d)
		}
		for index, ds := range byIndex {
			seed(index, events.EventMapping, ds...)
		}
		docs = docs[:0]
	}
	for i := 0; i < recsEvents; i++ {
		o := orders[rng.IntN(len(orders))]
		p, age := o[rng.IntN(len(o))], time.Duration(rng.Int64N(int64(35*24*time.Hour)))
		if i%50 == 0 {
			p, age = o[0], time.Duration(rng.Int64N(int64(7*24*time.Hour)))
		}
		docs = append(docs, seedDoc{doc: benchEvent(rng, p, now.Add(-age))})
		if len(docs) == cap(docs) {
			flush()
		}
	}
	flush()
}

func benchEvent(rng *rand.Rand, p string, at time.Time) events.EventDoc {
	d := events.EventDoc{Timestamp: at.UnixMilli(), Source: events.FromServer}
	switch x := rng.IntN(100); {
	case x < 70:
		d.Type, d.ObjectID = events.View, p
	case x < 90:
		d.Type, d.ObjectID, d.Position, d.Query = events.Click, p, 1+rng.IntN(10), "bench"
	case x < 98:
		d.Type, d.Items = events.AddToCart, []events.Item{{ObjectID: p}}
	default:
		d.Type, d.Items = events.Purchase, []events.Item{{ObjectID: p}}
	}
	return d
}

// complementGroup is the group complementing group g (test/benchdata's planted pairs).
func complementGroup(g int) int {
	c := g / benchdata.ShopGroupsPerCategory
	return (c^1)*benchdata.ShopGroupsPerCategory + g%benchdata.ShopGroupsPerCategory
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// latencies summarizes request times: median and 95th percentile, in milliseconds.
func latencies(ds []time.Duration) string {
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) float64 { return float64(s[int(q*float64(len(s)-1))].Microseconds()) / 1000 }
	return fmt.Sprintf("p50 %.1f ms, p95 %.1f ms (%d requests)", at(0.5), at(0.95), len(s))
}

var _ = Describe("Benchmark of the recommendation lists", Ordered, func() {
	var shop benchdata.Shop
	var test []heldOut
	var train [][]string
	var c recsClient

	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the recommendation benchmark")
		}
		shop = benchdata.NewShop(recsOrders)
		createIndexWith("shop", "recs-bench", recsSettings, nil, nil)
		issueFor("recs-bench", "shop", []searchv1alpha1.Scope{"search", "write"}, []string{"recs-bench"}, nil, nil)
		c = recsClient{http: &http.Client{}, base: "/api/teams/shop/indexes/recs-bench", key: keys["recs-bench"]}
		Eventually(func() int { return call(0, http.MethodGet, c.base+"/config", c.key, nil).status }).Should(Equal(http.StatusOK))
		records, err := json.Marshal(map[string]any{"records": shop.Products})
		Expect(err).NotTo(HaveOccurred())
		loaded := measure(func() {
			r := call(0, http.MethodPut, c.base+"/records", c.key, records)
			Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
		})
		train, test = holdOut(shop.Orders, recsHeldOut)
		sent := measure(func() { sendOrders(c, train) })
		names := esnames.For("shop", "recs-bench")
		_, err = esClient.Indices.Refresh().Index(names.Orders()).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		seedTrendingEvents(names, shop.Orders)
		fmt.Fprintf(GinkgoWriter, "catalog: %d products in %s; orders: %d sent in %s\n",
			len(shop.Products), loaded.wall.Round(time.Millisecond), len(train), sent.wall.Round(time.Millisecond))
	})

	It("predicts held-out items with goesWith and together better than the most ordered products", func() {
		baseline := mostOrdered(train)
		var hits struct{ goesWith, together, baseline, orders, categories int }
		// Held-out complements: the target is in the group complementing the query's.
		var complements struct{ n, goesWith, together, baseline int }
		var goesWithTimes, togetherTimes []time.Duration
		for _, t := range test {
			gw, took := c.list("/lists/goesWith/" + url.PathEscape(t.query) + "?limit=10")
			goesWithTimes = append(goesWithTimes, took)
			switch {
			case slices.Contains(gw, t.target+"|"+"orders"):
				hits.goesWith, hits.orders = hits.goesWith+1, hits.orders+1
			case slices.Contains(gw, t.target+"|"+"categories"):
				hits.goesWith, hits.categories = hits.goesWith+1, hits.categories+1
			}
			tg, took := c.list("/lists/together/" + url.PathEscape(t.query) + "?limit=10")
			togetherTimes = append(togetherTimes, took)
			if slices.Contains(tg, t.target+"|") {
				hits.together++
			}
			top := slices.DeleteFunc(slices.Clone(baseline), func(p string) bool { return p == t.query })[:recsListSize]
			if slices.Contains(top, t.target) {
				hits.baseline++
			}
			if shop.Group[t.target] == complementGroup(shop.Group[t.query]) {
				complements.n++
				complements.goesWith += b2i(slices.Contains(gw, t.target+"|orders") || slices.Contains(gw, t.target+"|categories"))
				complements.together += b2i(slices.Contains(tg, t.target+"|"))
				complements.baseline += b2i(slices.Contains(top, t.target))
			}
		}
		rate := func(n int) float64 { return float64(n) / float64(len(test)) }
		fmt.Fprintf(GinkgoWriter, "hit rate@10 over %d held-out items: goesWith %.3f (orders %.3f, categories %.3f), together %.3f, most ordered %.3f\n",
			len(test), rate(hits.goesWith), rate(hits.orders), rate(hits.categories), rate(hits.together), rate(hits.baseline))
		of := func(n int) float64 { return float64(n) / float64(complements.n) }
		fmt.Fprintf(GinkgoWriter, "of which %d held-out complements: goesWith %.3f, together %.3f, most ordered %.3f\n",
			complements.n, of(complements.goesWith), of(complements.together), of(complements.baseline))
		fmt.Fprintf(GinkgoWriter, "goesWith: %s\ntogether: %s\n", latencies(goesWithTimes), latencies(togetherTimes))
		Expect(rate(hits.goesWith)).To(BeNumerically(">", 2*rate(hits.baseline)), "goesWith beats the baseline clearly")
	})

	It("lists a product's near-duplicates as similar", func() {
		share, times := similarShare(c, shop, recsSimilar)
		fmt.Fprintf(GinkgoWriter, "similar: %.3f of the first 10 in the planted group (%d products); %s\n",
			share, recsSimilar, latencies(times))
	})

	It("ranks trending products", func() {
		var cold, warm []time.Duration
		for i := 0; i < benchdata.ShopCategories; i++ {
			var rec struct {
				Category string `json:"category"`
			}
			Expect(json.Unmarshal(shop.Products[i*benchdata.ShopGroupsPerCategory*benchdata.ShopGroupSize], &rec)).To(Succeed())
			path := "/lists/trending?field=category&value=" + url.QueryEscape(rec.Category)
			_, took := c.list(path)
			cold = append(cold, took)
			_, took = c.list(path)
			warm = append(warm, took)
		}
		all, took := c.list("/lists/trending")
		fmt.Fprintf(GinkgoWriter, "trending in a category, computed: %s; from the cache: %s; the whole shop, computed: %.1f ms, %d products\n",
			latencies(cold), latencies(warm), float64(took.Microseconds())/1000, len(all))
	})
})
