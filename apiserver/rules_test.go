package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var rulesIndexCounter atomic.Int64

// newRulesIndex is a fresh index of shop with merchSettings and merchRecords.
func newRulesIndex() catalogIndex {
	return rankedIndex(fmt.Sprintf("rules-%d-%d", GinkgoParallelProcess(), rulesIndexCounter.Add(1)), merchSettings, merchRecords...)
}

var _ = Describe("Merchandising rules through the API (issue 22)", func() {
	Describe("the rules endpoints", Ordered, func() {
		var ci catalogIndex
		BeforeAll(func() { ci = newRulesIndex() })

		It("write a rule with a write key, and read it back with either key", func() {
			rule := `{"objectID": "desk-pin", "description": "Desk launch", "conditions": [{"pattern": "desk", "anchoring": "contains"}],
				"consequence": {"promote": [{"objectID": "l1", "position": 1}]}}`
			r := call(0, http.MethodPut, ci.base+"/rules/desk-pin", ci.writeKey, []byte(rule))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(r.body).To(MatchJSON(rule))
			for _, key := range []string{ci.writeKey, ci.searchKey} {
				r = call(1, http.MethodGet, ci.base+"/rules/desk-pin", key, nil)
				Expect(r.status).To(Equal(http.StatusOK), string(r.body))
				Expect(r.body).To(MatchJSON(rule))
			}
		})

		It("refuse writes with a search key", func() {
			for _, m := range []string{http.MethodPut, http.MethodDelete} {
				Expect(call(0, m, ci.base+"/rules/desk-pin", ci.searchKey, []byte(`{"consequence": {"hide": ["x"]}}`)).status).To(Equal(http.StatusForbidden))
			}
			Expect(call(0, http.MethodPost, ci.base+"/rules", ci.searchKey, []byte(`{"rules": []}`)).status).To(Equal(http.StatusForbidden))
		})

		It("add or replace up to 1,000 rules at once, and list and find them by ID, description and pattern", func() {
			r := call(0, http.MethodPost, ci.base+"/rules", ci.writeKey, []byte(`{"rules": [
				{"objectID": "lamp-banner", "description": "Lamp week", "consequence": {"userData": {"banner": "lamps"}}},
				{"objectID": "desk-pin", "conditions": [{"pattern": "walnut", "anchoring": "startsWith"}], "consequence": {"hide": ["d3"]}}]}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(r.body).To(MatchJSON(`{"objectIDs": ["lamp-banner", "desk-pin"]}`))
			var page struct {
				Rules []struct {
					ObjectID string `json:"objectID"`
				} `json:"rules"`
				Total int64 `json:"total"`
			}
			list := func(query string) []string {
				r := call(0, http.MethodGet, ci.base+"/rules?"+query, ci.searchKey, nil)
				Expect(r.status).To(Equal(http.StatusOK), string(r.body))
				Expect(json.Unmarshal(r.body, &page)).To(Succeed())
				out := []string{}
				for _, rule := range page.Rules {
					out = append(out, rule.ObjectID)
				}
				return out
			}
			Expect(list("")).To(Equal([]string{"desk-pin", "lamp-banner"}))
			Expect(page.Total).To(BeNumerically("==", 2))
			Expect(list("query=lamp")).To(Equal([]string{"lamp-banner"}))
			Expect(list("query=walnu")).To(Equal([]string{"desk-pin"}))
			Expect(list("limit=1&offset=1")).To(Equal([]string{"lamp-banner"}))
			Expect(page.Total).To(BeNumerically("==", 2))

			many := make([]string, 1001)
			for i := range many {
				many[i] = fmt.Sprintf(`{"objectID": "r%d", "consequence": {"hide": ["x"]}}`, i)
			}
			expectRefused(call(0, http.MethodPost, ci.base+"/rules", ci.writeKey, []byte(`{"rules": [`+strings.Join(many, ",")+`]}`)),
				http.StatusBadRequest, "invalid rule: rules: at most 1000 in one request, got 1001")
		})

		It("refuse a rule that breaks a rule, naming the place, and write nothing", func() {
			before := call(0, http.MethodGet, ci.base+"/rules", ci.writeKey, nil)
			expectRefused(call(0, http.MethodPost, ci.base+"/rules", ci.writeKey, []byte(`{"rules": [
				{"objectID": "ok", "consequence": {"hide": ["x"]}},
				{"objectID": "bad", "validity": [{"from": "2030-02-01T00:00:00Z", "until": "2030-01-01T00:00:00Z"}],
				 "consequence": {"promote": [{"objectID": "p", "position": 1001}], "boost": [{"filter": {"field": "name", "eq": "x"}}]}}]}`)),
				http.StatusBadRequest, `invalid rule: rules[1].validity[0].until: must be after from; rules[1].consequence.promote[0].position: must be between 1 and 1000; `+
					`rules[1].consequence.boost[0].filter.field: "name" is not a filterable field (filterable fields: brand, inStock, price)`)
			expectRefused(call(0, http.MethodPut, ci.base+"/rules/x", ci.writeKey, []byte(`{"consequence": {"hide": ["x"]}, "priority": 1}`)),
				http.StatusBadRequest, `invalid JSON body: unknown field "priority"`)
			expectRefused(call(0, http.MethodPut, ci.base+"/rules/x", ci.writeKey, []byte(fmt.Sprintf(`{"conditions": [{"pattern": %q, "anchoring": "is"}], "consequence": {"hide": ["x"]}}`, strings.Repeat("p", 513)))),
				http.StatusBadRequest, "invalid rule: conditions[0].pattern: must be at most 512 bytes")
			Expect(call(0, http.MethodGet, ci.base+"/rules", ci.writeKey, nil).body).To(MatchJSON(before.body))
		})

		It("delete a rule; reading or deleting one that does not exist is 404", func() {
			Expect(call(0, http.MethodDelete, ci.base+"/rules/lamp-banner", ci.writeKey, nil).body).To(MatchJSON(`{"objectID": "lamp-banner"}`))
			expectRefused(call(0, http.MethodGet, ci.base+"/rules/lamp-banner", ci.searchKey, nil), http.StatusNotFound, "rule not found")
			expectRefused(call(0, http.MethodDelete, ci.base+"/rules/lamp-banner", ci.writeKey, nil), http.StatusNotFound, "rule not found")
		})

		It("replace them all at once, an empty list deleting them all", func() {
			putRules(ci, `{"objectID": "only", "consequence": {"hide": ["x"]}}`)
			Expect(call(0, http.MethodGet, ci.base+"/rules", ci.writeKey, nil).body).To(MatchJSON(
				`{"rules": [{"objectID": "only", "consequence": {"hide": ["x"]}}], "total": 1, "offset": 0, "limit": 20}`))
			putRules(ci)
			Expect(call(0, http.MethodGet, ci.base+"/rules", ci.writeKey, nil).body).To(MatchJSON(`{"rules": [], "total": 0, "offset": 0, "limit": 20}`))
		})

		It("hold up to 10,000 rules an index, refusing more with 400", func() {
			many := make([]string, 10_000)
			for i := range many {
				many[i] = fmt.Sprintf(`{"objectID": "r%05d", "consequence": {"hide": ["x"]}}`, i)
			}
			putRules(ci, many...)
			expectRefused(call(0, http.MethodPut, ci.base+"/rules/one-more", ci.writeKey, []byte(`{"consequence": {"hide": ["x"]}}`)),
				http.StatusBadRequest, "too many rules: an index holds at most 10000 rules; it holds 10000 and the request adds 1")
			Expect(call(0, http.MethodPut, ci.base+"/rules/r00001", ci.writeKey, []byte(`{"consequence": {"hide": ["y"]}}`)).status).To(Equal(http.StatusOK))
			putRules(ci)
		})
	})

	Describe("in search", Ordered, func() {
		var ci catalogIndex
		BeforeAll(func() { ci = newRulesIndex() })
		BeforeEach(func() { putRules(ci) })

		It("ranks as without rules when none applies", func() {
			res := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(res.ids()).To(Equal([]string{"d2", "d1", "d3"}))
			Expect(res.AppliedRules).To(BeNil())
		})

		It("promotes a record to its position even when the text does not match it, counting it once", func() {
			putRules(ci, `{"objectID": "pin", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}],
				"consequence": {"promote": [{"objectID": "l1", "position": 2}]}}`)
			res := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(res.ids()).To(Equal([]string{"d2", "l1", "d1", "d3"}))
			Expect(res.Hits[1].Promoted).To(BeTrue())
			Expect(res.Hits[1].Record).To(HaveKeyWithValue("name", "Brass lamp"))
			Expect(res.Total).To(BeNumerically("==", 4))
			Expect(res.AppliedRules).To(Equal([]string{"pin"}))
		})

		It("marks the words in a promoted record's fields as they are marked in an organic hit, typos included", func() {
			organic := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(organic.ids()).To(ContainElement("d3"))
			putRules(ci, `{"objectID": "pin", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}],
				"consequence": {"promote": [{"objectID": "d3", "position": 1}, {"objectID": "l1", "position": 2}]}}`)
			res := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(res.ids()[:2]).To(Equal([]string{"d3", "l1"}))
			Expect(res.Hits[0].Highlights).To(HaveKeyWithValue("name", ContainSubstring("<em>dezk</em>")))
			Expect(res.Hits[0].Highlights).To(Equal(organic.Hits[slices.Index(organic.ids(), "d3")].Highlights))
			Expect(res.Hits[1].Highlights).NotTo(HaveKeyWithValue("name", ContainSubstring("<em>")), "the words do not match the lamp")
		})

		It("keeps pages consistent around promoted records, the last one following the last organic hit", func() {
			putRules(ci, `{"objectID": "pins", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}],
				"consequence": {"promote": [{"objectID": "l1", "position": 2}, {"objectID": "c1", "position": 40}]}}`)
			var all []string
			for offset := 0; offset < 6; offset += 2 {
				res := ruledSearch(ci, fmt.Sprintf(`{"q": "walnut desk", "offset": %d, "limit": 2}`, offset))
				Expect(res.Total).To(BeNumerically("==", 5))
				all = append(all, res.ids()...)
			}
			Expect(all).To(Equal([]string{"d2", "l1", "d1", "d3", "c1"}))
		})

		It("places promoted records in every query of a multi-search, each as its own search would, in shared rounds", func() {
			putRules(ci, `{"objectID": "pins", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}],
				"consequence": {"promote": [{"objectID": "l1", "position": 2}, {"objectID": "c1", "position": 40}]}}`)
			// The last page needs a round of its own (c1 moves up to follow the last organic
			// hit); the first does not; the lamp search has no promoted record.
			bodies := []string{`{"q": "walnut desk", "offset": 4, "limit": 2}`, `{"q": "walnut desk", "limit": 2}`,
				`{"q": "lamp"}`, `{"q": "walnut desk", "offset": 2, "limit": 2}`}
			queries := make([]string, len(bodies))
			for i, b := range bodies {
				queries[i] = `{"index": "` + ci.name + `", ` + b[1:]
			}
			r := call(0, http.MethodPost, "/api/teams/shop/multi-search", ci.searchKey, []byte(`{"queries": [`+strings.Join(queries, ",")+`]}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var multi struct{ Results []ruledResult }
			Expect(json.Unmarshal(r.body, &multi)).To(Succeed())
			Expect(multi.Results).To(HaveLen(len(bodies)))
			for i, b := range bodies {
				alone := ruledSearch(ci, b)
				Expect(multi.Results[i].ids()).To(Equal(alone.ids()), b)
				Expect(multi.Results[i].Total).To(Equal(alone.Total), b)
			}
			Expect(multi.Results[0].ids()).To(Equal([]string{"c1"}))
			Expect(multi.Results[1].ids()).To(Equal([]string{"d2", "l1"}))
		})

		It("hides records from the hits and the facet counts", func() {
			putRules(ci, `{"objectID": "hide", "conditions": [{"pattern": "desk", "anchoring": "contains"}], "consequence": {"hide": ["d2"]}}`)
			r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "walnut desk", "facets": ["brand"]}`))
			Expect(r.status).To(Equal(http.StatusOK))
			var res struct {
				Hits   []map[string]any            `json:"hits"`
				Facets map[string][]map[string]any `json:"facets"`
			}
			Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			Expect(res.Hits).To(HaveLen(2))
			Expect(res.Facets["brand"]).To(ConsistOf(
				map[string]any{"value": "Oak", "count": float64(1)}, map[string]any{"value": "Pine", "count": float64(1)}))
		})

		DescribeTable("boosts and buries move records within the ranking, never above a record better on an earlier criterion",
			func(consequence string, order []string, weights map[string]float64) {
				putRules(ci, `{"objectID": "move", "consequence": `+consequence+`}`)
				res := ruledSearch(ci, `{"q": "walnut desk", "explain": true}`)
				Expect(res.ids()).To(Equal(order))
				for _, h := range res.Hits {
					if w, ok := weights[h.ObjectID]; ok {
						Expect(h.Ranking).To(HaveKeyWithValue("rules", w), h.ObjectID)
					}
				}
			},
			Entry("a boost lifts the less popular exact match over the other", `{"boost": [{"filter": {"field": "brand", "eq": "Oak"}}]}`,
				[]string{"d1", "d2", "d3"}, map[string]float64{"d1": 1, "d2": 0}),
			Entry("a boost never lifts a match with a typo over exact ones", `{"boost": [{"filter": {"field": "brand", "eq": "Pine"}, "weight": 10}]}`,
				[]string{"d2", "d1", "d3"}, map[string]float64{"d3": 10, "d1": 0}),
			Entry("a bury lowers the more popular exact match below the other", `{"bury": [{"filter": {"field": "brand", "eq": "Pine"}}]}`,
				[]string{"d1", "d2", "d3"}, map[string]float64{"d2": -1, "d1": 0}),
			Entry("boost and bury add up", `{"boost": [{"filter": {"field": "price", "range": {"lt": 260}}, "weight": 2}], "bury": [{"filter": {"field": "brand", "eq": "Pine"}, "weight": 3}]}`,
				[]string{"d1", "d2", "d3"}, map[string]float64{"d1": 0, "d2": -1}),
		)

		It("boosts records of a search without words, after no other criterion", func() {
			putRules(ci, `{"objectID": "season", "consequence": {"boost": [{"filter": {"field": "brand", "eq": "Acme"}}]}}`)
			Expect(ruledSearch(ci, `{"q": "", "limit": 2}`).ids()).To(Equal([]string{"c1", "d3"}))
		})

		It("ANDs its filters with the request's", func() {
			putRules(ci, `{"objectID": "pine", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}], "consequence": {"filters": {"field": "brand", "eq": "Pine"}}}`)
			Expect(ruledSearch(ci, `{"q": "walnut desk"}`).ids()).To(Equal([]string{"d2", "d3"}))
			Expect(ruledSearch(ci, `{"q": "walnut desk", "filters": {"field": "price", "range": {"lt": 220}}}`).ids()).To(Equal([]string{"d3"}))
		})

		It("replaces the query, or removes words from it", func() {
			Expect(ruledSearch(ci, `{"q": "cheap walnut desk", "matchingStrategy": "all"}`).Total).To(BeZero(), "no record holds cheap")
			putRules(ci,
				`{"objectID": "a-notebook", "conditions": [{"pattern": "notebook", "anchoring": "is"}], "consequence": {"query": {"replace": "walnut desk"}}}`,
				`{"objectID": "b-cheap", "conditions": [{"pattern": "cheap", "anchoring": "contains"}], "consequence": {"query": {"remove": ["cheap"]}}}`)
			Expect(ruledSearch(ci, `{"q": "notebook"}`).ids()).To(Equal([]string{"d2", "d1", "d3"}))
			Expect(ruledSearch(ci, `{"q": "Cheap walnut desk"}`).ids()).To(Equal([]string{"d2", "d1", "d3"}))
		})

		It("returns the rules applied and their userData, in the rules' order", func() {
			putRules(ci,
				`{"objectID": "z-always", "consequence": {"boost": [{"filter": {"field": "brand", "eq": "Acme"}}]}}`,
				`{"objectID": "m-contains", "conditions": [{"pattern": "desk", "anchoring": "contains"}], "consequence": {"userData": "desks"}}`,
				`{"objectID": "a-is", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}], "consequence": {"userData": {"banner": "walnut.png"}}}`,
				`{"objectID": "b-other", "conditions": [{"pattern": "lamp", "anchoring": "is"}], "consequence": {"userData": "lamps"}}`)
			res := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(res.AppliedRules).To(Equal([]string{"a-is", "m-contains", "z-always"}))
			Expect(res.UserData).To(HaveLen(2))
			Expect(res.UserData[0]).To(MatchJSON(`{"banner": "walnut.png"}`))
			Expect(res.UserData[1]).To(MatchJSON(`"desks"`))
		})

		DescribeTable("the anchoring of a pattern says which queries it matches",
			func(anchoring string, applied map[string]bool) {
				putRules(ci, fmt.Sprintf(`{"objectID": "r", "conditions": [{"pattern": "walnut desk", "anchoring": %q}], "consequence": {"userData": 1}}`, anchoring))
				for q, want := range applied {
					Expect(ruledSearch(ci, fmt.Sprintf(`{"q": %q}`, q)).AppliedRules).To(HaveLen(map[bool]int{true: 1}[want]), "%s %q", anchoring, q)
				}
			},
			Entry("is", "is", map[string]bool{"walnut desk": true, "Walnut desks": true, "walnut desk lamp": false, "big walnut desk": false, "walnut": false}),
			Entry("startsWith", "startsWith", map[string]bool{"walnut desk": true, "walnut desk lamp": true, "big walnut desk": false}),
			Entry("endsWith", "endsWith", map[string]bool{"walnut desk": true, "walnut desk lamp": false, "big walnut desk": true}),
			Entry("contains", "contains", map[string]bool{"walnut desk": true, "walnut desk lamp": true, "big walnut desk": true, "my walnut desk here": true, "desk walnut": false}),
		)

		It("triggers a rule for iphone with iPhones: patterns and queries are read by the index's language", func() {
			putRules(ci, `{"objectID": "iphone", "conditions": [{"pattern": "iphone", "anchoring": "is"}], "consequence": {"promote": [{"objectID": "c1", "position": 1}]}}`)
			res := ruledSearch(ci, `{"q": "iPhones"}`)
			Expect(res.AppliedRules).To(Equal([]string{"iphone"}))
			Expect(res.ids()).To(Equal([]string{"c1"}))
		})

		It("applies a rule within its validity windows only, by the server's clock", func() {
			putRules(ci, `{"objectID": "sale", "validity": [{"from": "2030-11-27T00:00:00Z", "until": "2030-12-01T00:00:00Z"}], "consequence": {"userData": "black friday"}}`)
			for at, want := range map[string]int{"2030-11-26T23:59:59Z": 0, "2030-11-27T00:00:00Z": 1, "2030-11-30T23:59:59Z": 1, "2030-12-01T00:00:00Z": 0} {
				t, err := time.Parse(time.RFC3339, at)
				Expect(err).NotTo(HaveOccurred())
				setRulesClock(t)
				Expect(ruledSearch(ci, `{"q": "lamp"}`).AppliedRules).To(HaveLen(want), at)
			}
		})

		It("leaves out a disabled rule, and every rule of a search with enableRules false", func() {
			putRules(ci, `{"objectID": "off", "enabled": false, "consequence": {"hide": ["d2"]}}`,
				`{"objectID": "on", "consequence": {"hide": ["d1"]}}`)
			res := ruledSearch(ci, `{"q": "walnut desk"}`)
			Expect(res.ids()).To(Equal([]string{"d2", "d3"}))
			Expect(res.AppliedRules).To(Equal([]string{"on"}))
			res = ruledSearch(ci, `{"q": "walnut desk", "enableRules": false}`)
			Expect(res.ids()).To(Equal([]string{"d2", "d1", "d3"}))
			Expect(res.AppliedRules).To(BeNil())
		})
	})

	It("keep applying across a full replacement of the records and a rebuild to another language", func() {
		ci := newRulesIndex()
		putRules(ci, `{"objectID": "pin", "conditions": [{"pattern": "walnut desks", "anchoring": "is"}], "consequence": {"promote": [{"objectID": "l1", "position": 1}]}}`)
		Expect(ruledSearch(ci, `{"q": "walnut desk"}`).ids()).To(Equal([]string{"l1", "d2", "d1", "d3"}))

		recs := make([]map[string]any, len(merchRecords))
		for i, r := range merchRecords {
			Expect(json.Unmarshal([]byte(r), &recs[i])).To(Succeed())
		}
		Expect(call(0, http.MethodPut, ci.base+"/records", ci.writeKey, recordsBody(recs)).status).To(Equal(http.StatusAccepted))
		Expect(ruledSearch(ci, `{"q": "walnut desk"}`).AppliedRules).To(Equal([]string{"pin"}))

		r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, []byte(`{"searchableFields": [{"path": "name", "weight": 3}, {"path": "description", "weight": 1}],
			"filterableFields": ["brand", "inStock", "price"], "facetFields": ["brand"], "customRanking": [{"field": "popularity", "order": "desc"}],
			"language": "generic"}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Eventually(func(g Gomega) {
			st := rebuildStatus(ci)
			g.Expect(st).NotTo(BeNil())
			g.Expect(st.State).To(Equal(searchv1alpha1.RebuildSucceeded))
		}).Should(Succeed())
		Eventually(func() []string {
			return ruledSearch(ci, `{"q": "walnut desks"}`).AppliedRules
		}).Should(Equal([]string{"pin"}))
		Expect(ruledSearch(ci, `{"q": "walnut desk"}`).AppliedRules).To(BeNil(), "generic has no stemming: desk is not desks")
	})

	It("are deleted with the index", func() {
		ci := newRulesIndex()
		putRules(ci, `{"objectID": "r", "consequence": {"hide": ["x"]}}`)
		exists := func() bool {
			res, err := esClient.Indices.Exists(ci.names.Rules()).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			return res
		}
		Expect(exists()).To(BeTrue())
		updateIndex(ci, func(idx *searchv1alpha1.SearchIndex) { idx.Spec.DeletionPolicy = searchv1alpha1.DeletionDelete })
		Expect(k8sClient.Delete(ctx, &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: ci.name}})).To(Succeed())
		Eventually(exists).Should(BeFalse())
	})

	It("are replaced at once: a search during PUT /rules applies the old set or the new one, never a mix", func() {
		ci := newRulesIndex()
		set := func(tag string) []string {
			out := make([]string, 20)
			for i := range out {
				out[i] = fmt.Sprintf(`{"objectID": "%s%02d", "consequence": {"userData": %q}}`, tag, i, tag)
			}
			return out
		}
		putRules(ci, set("a")...)
		var wg sync.WaitGroup
		done := make(chan struct{})
		wg.Add(1)
		go func() {
			defer GinkgoRecover()
			defer wg.Done()
			defer close(done)
			for i := 0; i < 6; i++ {
				putRules(ci, set([]string{"b", "a"}[i%2])...)
			}
		}()
		seen := map[string]bool{}
		for running := true; running; {
			select {
			case <-done:
				running = false
			default:
			}
			res := ruledSearch(ci, `{"q": "lamp"}`)
			Expect(res.AppliedRules).To(HaveLen(10))
			for _, id := range res.AppliedRules {
				Expect(id[:1]).To(Equal(res.AppliedRules[0][:1]), "one search applies rules of one set: %v", res.AppliedRules)
			}
			seen[res.AppliedRules[0][:1]] = true
		}
		wg.Wait()
		Expect(seen).To(HaveKey("a"))
	})

	It("apply to public search, which never returns what its policy hides", func() {
		ci := newRulesIndex()
		updateIndex(ci, func(idx *searchv1alpha1.SearchIndex) {
			idx.Spec.AllowedOrigins = []searchv1alpha1.Origin{"https://shop.example"}
		})
		policy := `{"policy": {"maxHits": 3, "retrievableFields": ["name"], "forcedFilters": [{"field": "inStock", "values": ["true"]}]}}`
		Expect(call(0, http.MethodPut, ci.base+"/public-access/policy", ci.writeKey, []byte(policy)).status).To(Equal(http.StatusOK))
		putRules(ci, `{"objectID": "lamps", "conditions": [{"pattern": "lamp", "anchoring": "is"}],
			"consequence": {"promote": [{"objectID": "l2", "position": 1}, {"objectID": "d1", "position": 2}], "hide": ["l1"]}}`)
		publicSearch := func(body string) response {
			return callWith(0, http.MethodPost, "/api/public/indexes/pub-shop-"+ci.name+"/search", "", []byte(body),
				map[string]string{"Origin": "https://shop.example", "User-Agent": "rules-spec"})
		}
		Expect(ruledSearch(ci, `{"q": "lamp"}`).ids()).To(Equal([]string{"l2", "d1"}), "with a key, no policy applies")
		var res ruledResult
		Eventually(func(g Gomega) {
			r := publicSearch(`{"q": "lamp"}`)
			g.Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			g.Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			g.Expect(res.ids()).To(Equal([]string{"d1"}), "l2 is out of stock, l1 hidden")
		}).Should(Succeed())
		Expect(res.Hits[0].Record).To(Equal(map[string]any{"objectID": "d1", "name": "Walnut desk"}))
		Expect(res.Hits[0].Promoted).To(BeTrue())
		Expect(res.Total).To(BeNumerically("==", 1))
		Expect(res.AppliedRules).To(Equal([]string{"lamps"}))
		expectRefused(publicSearch(`{"q": "lamp", "enableRules": false}`), http.StatusBadRequest,
			"enableRules: is only available with a key: public search always applies the index's rules")
	})
})

// updateIndex changes ci's SearchIndex, retrying on conflicts with the operator's writes.
func updateIndex(ci catalogIndex, change func(*searchv1alpha1.SearchIndex)) {
	GinkgoHelper()
	Eventually(func() error {
		var idx searchv1alpha1.SearchIndex
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: "shop", Name: ci.name}, &idx); err != nil {
			return err
		}
		change(&idx)
		return k8sClient.Update(ctx, &idx)
	}).Should(Succeed())
}
