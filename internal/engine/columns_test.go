package engine_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Range queries and aggregations read per-segment columns (internal/engine/columns); these
// specs compare them with answers computed here over documents spread across several
// segments, with multi-valued fields, updates and deletes.
var _ = Describe("columnar ranges and aggregations", Ordered, func() {
	const idx = "columns-check"
	type doc struct {
		Price []float64 `json:"price"`
		Day   string    `json:"day,omitempty"`
		Brand []string  `json:"brand,omitempty"`
	}
	live := map[string]doc{}

	BeforeAll(func() {
		_, err := es.Indices.Create(idx).Raw(strings.NewReader(`{"mappings":{"properties":{
			"price":{"type":"double"},"day":{"type":"date"},"brand":{"type":"keyword"}}}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		r := rand.New(rand.NewSource(3))
		for round := 0; round < 4; round++ { // one segment per round at least
			b := es.Bulk().Index(idx).Refresh(refresh.True)
			for i := 0; i < 150; i++ {
				id := fmt.Sprint(r.Intn(400))
				if r.Intn(10) == 0 {
					Expect(b.DeleteOp(types.DeleteOperation{Id_: &id})).To(Succeed())
					delete(live, id)
					continue
				}
				d := doc{}
				for n := r.Intn(3); n >= 0; n-- { // one to three prices, sometimes none
					if r.Intn(8) > 0 {
						d.Price = append(d.Price, float64(r.Intn(2000)-500)/10)
					}
				}
				if r.Intn(4) > 0 {
					d.Day = fmt.Sprintf("2024-%02d-%02dT00:00:00Z", 1+r.Intn(12), 1+r.Intn(28))
				}
				for n := r.Intn(3); n > 0; n-- {
					d.Brand = append(d.Brand, fmt.Sprintf("b%d", r.Intn(6)))
				}
				raw, _ := json.Marshal(d)
				Expect(b.IndexOp(types.IndexOperation{Id_: &id}, json.RawMessage(raw))).To(Succeed())
				live[id] = d
			}
			res, err := b.Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Errors).To(BeFalse())
		}
	})

	hits := func(q string) []string {
		res, err := es.Search().Index(idx).Raw(strings.NewReader(`{"size":1000,"query":` + q + `}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		out := ids(res)
		sort.Strings(out)
		return out
	}
	want := func(keep func(doc) bool) []string {
		out := []string{}
		for id, d := range live {
			if keep(d) {
				out = append(out, id)
			}
		}
		sort.Strings(out)
		return out
	}
	anyPrice := func(d doc, ok func(float64) bool) bool {
		for _, p := range d.Price {
			if ok(p) {
				return true
			}
		}
		return false
	}

	It("matches numeric ranges on any value of a document", func() {
		Expect(hits(`{"range":{"price":{"gte":10,"lt":50.5}}}`)).To(Equal(want(func(d doc) bool {
			return anyPrice(d, func(p float64) bool { return p >= 10 && p < 50.5 })
		})))
		Expect(hits(`{"range":{"price":{"gt":-20}}}`)).To(Equal(want(func(d doc) bool {
			return anyPrice(d, func(p float64) bool { return p > -20 })
		})))
		Expect(hits(`{"term":{"price":12.5}}`)).To(Equal(want(func(d doc) bool {
			return anyPrice(d, func(p float64) bool { return p == 12.5 })
		})))
		Expect(hits(`{"range":{"price":{"gt":1000}}}`)).To(BeEmpty())
	})

	It("matches date ranges and combines range filters with other clauses", func() {
		Expect(hits(`{"range":{"day":{"gte":"2024-03-01","lte":"2024-06-30"}}}`)).To(Equal(want(func(d doc) bool {
			return d.Day != "" && d.Day >= "2024-03-01" && d.Day <= "2024-06-30T23:59:59Z"
		})))
		Expect(hits(`{"bool":{"must":{"term":{"brand":"b2"}},"filter":[{"range":{"price":{"lte":0}}},{"range":{"day":{"lt":"2024-07-01"}}}]}}`)).
			To(Equal(want(func(d doc) bool {
				hasB2 := false
				for _, b := range d.Brand {
					hasB2 = hasB2 || b == "b2"
				}
				return hasB2 && anyPrice(d, func(p float64) bool { return p <= 0 }) && d.Day != "" && d.Day < "2024-07-01"
			})))
	})

	It("counts terms aggregations over every matching document", func() {
		res, err := es.Search().Index(idx).Raw(strings.NewReader(`{"size":0,"query":{"range":{"price":{"gte":0}}},
			"aggs":{"brands":{"terms":{"field":"brand","size":20}},"top":{"max":{"field":"price"}}}}`)).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		counts, max := map[string]int{}, -1e9
		for _, d := range live {
			if !anyPrice(d, func(p float64) bool { return p >= 0 }) {
				continue
			}
			seen := map[string]bool{}
			for _, b := range d.Brand {
				if !seen[b] {
					seen[b] = true
					counts[b]++
				}
			}
			for _, p := range d.Price {
				if p > max {
					max = p
				}
			}
		}
		raw, _ := json.Marshal(res.Aggregations)
		var got struct {
			Brands struct {
				Buckets []struct {
					Key      string `json:"key"`
					DocCount int    `json:"doc_count"`
				} `json:"buckets"`
			} `json:"brands"`
			Top struct {
				Value float64 `json:"value"`
			} `json:"top"`
		}
		Expect(json.Unmarshal(raw, &got)).To(Succeed())
		gotCounts := map[string]int{}
		for _, b := range got.Brands.Buckets {
			gotCounts[b.Key] = b.DocCount
		}
		Expect(gotCounts).To(Equal(counts))
		Expect(got.Top.Value).To(Equal(max))
	})
})
