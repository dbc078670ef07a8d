package engine_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func bulkLoad(idx string, n int, doc func(i int) map[string]any) {
	for start := 0; start < n; start += 1000 {
		b := es.Bulk().Index(idx)
		for i := start; i < start+1000 && i < n; i++ {
			Expect(b.IndexOp(types.IndexOperation{Id_: ptr(strconv.Itoa(i))}, doc(i))).To(Succeed())
		}
		res, err := b.Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Errors).To(BeFalse())
	}
	_, err := es.Indices.Refresh().Index(idx).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
}

var _ = Describe("Concurrency", func() {
	// ES docs: "Optimistic concurrency control" — of concurrent writes conditioned on the
	// same seq_no and primary term, exactly one succeeds; the others get 409.
	It("lets exactly one of 50 concurrent compare-and-set writers win each round", func() {
		idx := uniqueIndex("cas")
		_, err := es.Index(idx).Id("k").Document(map[string]any{"round": -1}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		for round := 0; round < 10; round++ {
			cur, err := es.Get(idx, "k").Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			seq := strconv.FormatInt(*cur.SeqNo_, 10)
			var wins, conflicts atomic.Int32
			var wg sync.WaitGroup
			start := make(chan struct{})
			for g := 0; g < 50; g++ {
				wg.Add(1)
				go func(g int) {
					defer GinkgoRecover()
					defer wg.Done()
					<-start
					_, err := es.Index(idx).Id("k").IfSeqNo(seq).IfPrimaryTerm("1").
						Document(map[string]any{"round": round, "writer": g}).Do(ctx)
					if err == nil {
						wins.Add(1)
						return
					}
					e := esError(err)
					Expect(e.Status).To(Equal(409))
					Expect(e.ErrorCause.Type).To(Equal("version_conflict_engine_exception"))
					conflicts.Add(1)
				}(g)
			}
			close(start)
			wg.Wait()
			Expect(wins.Load()).To(Equal(int32(1)), "round %d", round)
			Expect(conflicts.Load()).To(Equal(int32(49)), "round %d", round)
			after, err := es.Get(idx, "k").Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(*after.Version_).To(Equal(*cur.Version_ + 1))
		}
	})

	// DESIGN "Elasticsearch data model": the alias moves in one POST /_aliases (remove+add),
	// then the old index is deleted; readers never see a half-built or mixed catalog.
	It("never shows readers zero or mixed results while an alias is swapped", func() {
		alias := uniqueIndex("live")
		const docs = 300
		build := func(gen int) string {
			name := fmt.Sprintf("%s-gen%d", alias, gen)
			bulkLoad(name, docs, func(i int) map[string]any { return map[string]any{"gen": gen, "n": i} })
			return name
		}
		current := build(0)
		_, err := es.Indices.UpdateAliases().Actions(types.IndicesAction{Add: &types.AddAction{Index: &current, Alias: &alias}}).Do(ctx)
		Expect(err).NotTo(HaveOccurred())

		var stop atomic.Bool
		var searches atomic.Int64
		var wg sync.WaitGroup
		problems := make(chan string, 100)
		for r := 0; r < 3; r++ {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				reader := newClient(srv.URL())
				for !stop.Load() {
					res, err := reader.Search().Index(alias).Size(docs).Do(ctx)
					if err != nil {
						problems <- err.Error()
						return
					}
					searches.Add(1)
					gens := map[string]bool{}
					for _, h := range res.Hits.Hits {
						gens[h.Index_] = true
					}
					if res.Hits.Total.Value != docs || len(gens) != 1 {
						problems <- fmt.Sprintf("total %d over %d indices", res.Hits.Total.Value, len(gens))
						return
					}
				}
			}()
		}
		for gen := 1; gen <= 4; gen++ {
			next := build(gen)
			_, err := es.Indices.UpdateAliases().Actions(
				types.IndicesAction{Remove: &types.RemoveAction{Index: &current, Alias: &alias}},
				types.IndicesAction{Add: &types.AddAction{Index: &next, Alias: &alias}},
			).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			_, err = es.Indices.Delete(current).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			current = next
		}
		stop.Store(true)
		wg.Wait()
		close(problems)
		Expect(problems).To(BeEmpty())
		Expect(searches.Load()).To(BeNumerically(">", 10))

		// Writes through a single-index alias go to that index.
		_, err = es.Index(alias).Id("via-alias").Document(map[string]any{"gen": 99}).Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		got, err := es.Get(current, "via-alias").Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Found).To(BeTrue())
	})

	// ES docs: "Paginate search results" > search_after — each document exactly once.
	It("pages through 25,000 documents with search_after, each exactly once", func() {
		idx := uniqueIndex("paging")
		const total = 25000
		bulkLoad(idx, total, func(i int) map[string]any {
			return map[string]any{"group": fmt.Sprintf("g%02d", i%37), "n": i}
		})
		seen := make([]int, total)
		var after []types.FieldValue
		pages := 0
		for {
			req := es.Search().Index(idx).Size(1000).TrackTotalHits(true).
				Sort(map[string]any{"group.keyword": "asc"}, map[string]any{"n": "desc"})
			if after != nil {
				req = req.SearchAfter(after...)
			}
			res, err := req.Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Hits.Total.Value).To(Equal(int64(total)))
			if len(res.Hits.Hits) == 0 {
				break
			}
			pages++
			for _, h := range res.Hits.Hits {
				var src struct{ N int }
				Expect(json.Unmarshal(h.Source_, &src)).To(Succeed())
				seen[src.N]++
			}
			last := res.Hits.Hits[len(res.Hits.Hits)-1]
			after = make([]types.FieldValue, len(last.Sort))
			copy(after, last.Sort)
		}
		Expect(pages).To(Equal(25))
		for n, c := range seen {
			if c != 1 {
				Fail(fmt.Sprintf("document %d seen %d times", n, c))
			}
		}
	})

	// go-elasticsearch sends the ES error body through; check the raw shape once.
	It("keeps ES's error envelope for every failure", func() {
		_, body, _ := rawDo("POST", "/_aliases", "application/json", `{"actions":[{"add":{"index":"missing-x","alias":"a"}}]}`)
		var e map[string]any
		Expect(json.Unmarshal([]byte(body), &e)).To(Succeed())
		Expect(e).To(HaveKey("error"))
		Expect(e["status"]).To(BeEquivalentTo(404))
		Expect(strings.Contains(body, `"root_cause"`)).To(BeTrue())
	})
})
