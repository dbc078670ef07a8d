package apiserver_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// The learning simulation of docs/benchmarks.md (issue 24): a generated catalog of
// 4,000 products, 20 colours × 10 kinds × 20 models, each with a hidden appeal (u³, u
// uniform: a few products most shoppers like). 200 queries, "<colour> <kind>", each
// match 20 products, equal on every text criterion, so that without learning objectID
// orders them. A simulated shopper searches one query (uniformly), gets a page of 20,
// looks at position p with probability p^-0.7 (not the 1/√p re-ranking assumes), clicks
// a product she looks at with probability its appeal (a click and a view), and buys it
// with probability appeal/5; the events go through POST /events. The figure is the mean
// over the 200 queries of NDCG@10 of the hidden appeal, before and after 10,000 such
// searches with eventRanking (_popularity) and reRanking on; the operator refreshes the
// signals every second meanwhile (the suite's SignalsRefresh). AISLE_BENCH=1 runs it.

const (
	simColours  = 20
	simKinds    = 10
	simModels   = 20
	simSearches = 10_000
	simPage     = 20
	simBatch    = 100 // shoppers per POST /events
)

var simColourNames = []string{"red", "blue", "green", "black", "white", "grey", "pink", "brown", "orange", "purple",
	"yellow", "navy", "olive", "beige", "teal", "maroon", "coral", "ivory", "khaki", "silver"}

var simKindNames = []string{"shirt", "jacket", "sock", "scarf", "glove", "sweater", "trouser", "hat", "belt", "apron"}

var simModelNames = []string{"alder", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet", "juniper",
	"kestrel", "larch", "meadow", "nettle", "oriel", "prairie", "quarry", "rowan", "sorrel", "tundra"}

var simSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: searchv1alpha1.PopularityField}},
	EventRanking:     &searchv1alpha1.EventRanking{Enabled: true},
	ReRanking:        &searchv1alpha1.ReRanking{Enabled: true, MinSearches: 5, Strength: 50},
}

// simShop is the generated catalog: its records, each product's appeal, and each
// query's products.
type simShop struct {
	records []string
	appeal  map[string]float64
	queries []string
	matches map[string][]string
}

func newSimShop(rng *rand.Rand) simShop {
	s := simShop{appeal: map[string]float64{}, matches: map[string][]string{}}
	for c, colour := range simColourNames[:simColours] {
		for k, kind := range simKindNames[:simKinds] {
			q := colour + " " + kind
			s.queries = append(s.queries, q)
			for m, model := range simModelNames[:simModels] {
				// IDs in an order unrelated to the appeal: objectID is the tie-breaker.
				id := fmt.Sprintf("p%04d-%02d%02d%02d", rng.IntN(10000), c, k, m)
				s.records = append(s.records, fmt.Sprintf(`{"objectID": %q, "name": %q}`, id, q+" "+model))
				s.appeal[id] = math.Pow(rng.Float64(), 3)
				s.matches[q] = append(s.matches[q], id)
			}
		}
	}
	return s
}

// ndcg10 is NDCG@10 of the hidden appeal for one query's ranking.
func (s simShop) ndcg10(q string, ranked []string) float64 {
	dcg := func(ids []string) float64 {
		sum := 0.0
		for i, id := range ids {
			if i == 10 {
				break
			}
			sum += s.appeal[id] / math.Log2(float64(i)+2)
		}
		return sum
	}
	ideal := append([]string{}, s.matches[q]...)
	sort.Slice(ideal, func(i, j int) bool { return s.appeal[ideal[i]] > s.appeal[ideal[j]] })
	return dcg(ranked) / dcg(ideal)
}

// simShopper is how likely a simulated shopper is to click a product she looks at, by
// its appeal: she buys it with a fifth of that.
type simShopper func(appeal float64) float64

func byAppeal(appeal float64) float64 { return appeal }

// atRandom clicks and buys as often as shoppers do on average, whatever the product.
func atRandom(float64) float64 { return 0.25 }

type simRun struct {
	ci   catalogIndex
	shop simShop
	rng  *rand.Rand
}

func (r simRun) page(q string, limit int) []string {
	res := call(0, http.MethodPost, r.ci.base+"/search", r.ci.searchKey, map[string]any{"q": q, "limit": limit})
	Expect(res.status).To(Equal(http.StatusOK), string(res.body))
	var page rankedResult
	Expect(json.Unmarshal(res.body, &page)).To(Succeed())
	return page.ids()
}

func (r simRun) meanNDCG() float64 {
	sum := 0.0
	for _, q := range r.shop.queries {
		sum += r.shop.ndcg10(q, r.page(q, 10))
	}
	return sum / float64(len(r.shop.queries))
}

// shop runs one shopper: her search, and the events of what she looked at and liked.
func (r simRun) shopper(clicks simShopper) []string {
	q := r.shop.queries[r.rng.IntN(len(r.shop.queries))]
	var evs []string
	for i, id := range r.page(q, simPage) {
		p := i + 1
		likes := clicks(r.shop.appeal[id])
		if r.rng.Float64() >= math.Pow(float64(p), -0.7) || r.rng.Float64() >= likes {
			continue
		}
		evs = append(evs, fmt.Sprintf(`{"type": "click", "objectID": %q, "position": %d, "query": %q}`, id, p, q),
			fmt.Sprintf(`{"type": "view", "objectID": %q}`, id))
		if r.rng.Float64() < likes/5 {
			evs = append(evs, fmt.Sprintf(`{"type": "purchase", "orderID": "o-%d", "items": [{"objectID": %q}]}`, r.rng.Int64(), id))
			break
		}
	}
	return evs
}

// simulate runs simSearches shoppers, sending their events in batches.
func (r simRun) simulate(clicks simShopper) {
	var batch []string
	for i := 1; i <= simSearches; i++ {
		batch = append(batch, r.shopper(clicks)...)
		if i%simBatch == 0 && len(batch) > 0 {
			for len(batch) > 0 {
				n := min(len(batch), 200)
				learningEvents(r.ci, batch[:n]...)
				batch = batch[n:]
			}
		}
	}
}

// settle waits for the operator's next refreshes and the replicas' caches of the
// re-ranking scores (a minute), so the figure after counts every event.
func settle() { time.Sleep(signalsSettle) }

const signalsSettle = 65 * time.Second

func newSimRun(name string, seed uint64) simRun {
	rng := rand.New(rand.NewPCG(seed, 24))
	shop := newSimShop(rng)
	origins := []searchv1alpha1.Origin{"https://shop.example"}
	ci := rankedIndexWith(name, simSettings, origins, &searchv1alpha1.PublicSearchPolicy{}, shop.records...)
	run := simRun{ci: ci, shop: shop, rng: rng}
	Eventually(func() int { return len(run.page(shop.queries[0], simPage)) }).Should(Equal(simModels))
	return run
}

var _ = Describe("Benchmark of learning from shoppers (issue 24)", Ordered, func() {
	BeforeAll(func() {
		if os.Getenv("AISLE_BENCH") == "" {
			Skip("set AISLE_BENCH=1 to run the learning simulation")
		}
	})

	It("improves NDCG@10 of the hidden appeal with honest shoppers", func() {
		run := newSimRun("sim-honest", 1)
		before := run.meanNDCG()
		start := time.Now()
		run.simulate(byAppeal)
		took := time.Since(start)
		settle()
		after := run.meanNDCG()
		fmt.Fprintf(GinkgoWriter, "honest: NDCG@10 %.3f before, %.3f after %d searches (%s)\n", before, after, simSearches, took.Round(time.Second))
		Expect(after).To(BeNumerically(">", before+0.1), "learning clearly helps")
	})

	It("does not get worse by more than a little when shoppers click at random", func() {
		run := newSimRun("sim-random", 1)
		before := run.meanNDCG()
		run.simulate(atRandom)
		settle()
		after := run.meanNDCG()
		fmt.Fprintf(GinkgoWriter, "random clicks: NDCG@10 %.3f before, %.3f after %d searches\n", before, after, simSearches)
		Expect(after).To(BeNumerically(">", before-0.05))
	})

	It("bounds the effect of one visitor sending the same click as fast as the rate limits allow", func() {
		run := newSimRun("sim-spam", 1)
		before := run.meanNDCG()
		q := run.shop.queries[0]
		target := run.shop.matches[q][0]
		for _, id := range run.shop.matches[q] {
			if run.shop.appeal[id] < run.shop.appeal[target] {
				target = id
			}
		}
		click := fmt.Sprintf(`{"type": "click", "objectID": %q, "position": 20, "query": %q}`, target, q)
		body := []byte(`{"events": [` + strings.TrimSuffix(strings.Repeat(click+",", 100), ",") + `]}`)
		var sent, accepted atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r, err := callWithE(1, http.MethodPost, "/api/public/indexes/pub-shop-"+run.ci.name+"/events", "", body, browser)
				Expect(err).NotTo(HaveOccurred())
				sent.Add(1)
				if r.status == http.StatusAccepted {
					accepted.Add(100)
				} else {
					time.Sleep(50 * time.Millisecond)
				}
			}
		}()
		run.simulate(byAppeal)
		close(stop)
		wg.Wait()
		settle()
		after := run.meanNDCG()
		rank := 1 + slices.Index(run.page(q, simPage), target)
		fmt.Fprintf(GinkgoWriter, "one visitor's flood (%d clicks accepted of %d requests) on the least appealing of %q: NDCG@10 %.3f before, %.3f after; it ranks %d of %d\n",
			accepted.Load(), sent.Load(), q, before, after, rank, simModels)
		Expect(after).To(BeNumerically(">", before), "the honest shoppers' learning survives")
	})
})
