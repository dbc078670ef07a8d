package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// learningEvents sends events (JSON objects) with the index's write key.
func learningEvents(ci catalogIndex, evs ...string) {
	GinkgoHelper()
	r := call(0, http.MethodPost, ci.base+"/events", ci.writeKey, []byte(`{"events": [`+strings.Join(evs, ",")+`]}`))
	Expect(r.status).To(Equal(http.StatusAccepted), string(r.body))
}

func repeated(n int, ev string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = ev
	}
	return out
}

// recordVersion is a record's version as GET /records/{objectID} gives it, and its body.
func recordVersion(ci catalogIndex, id string) (int64, string) {
	GinkgoHelper()
	r := call(0, http.MethodGet, ci.base+"/records/"+id, ci.writeKey, nil)
	Expect(r.status).To(Equal(http.StatusOK))
	var got struct {
		Version int64 `json:"version"`
	}
	Expect(json.Unmarshal(r.body, &got)).To(Succeed())
	return got.Version, string(r.body)
}

var popularitySettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: searchv1alpha1.PopularityField}},
	EventRanking:     &searchv1alpha1.EventRanking{Enabled: true},
}

// The four trail shoes tie on every text criterion: without events objectID orders them.
var popularityRecords = []string{
	`{"objectID": "l1", "name": "Trail shoe red"}`, `{"objectID": "l2", "name": "Trail shoe blue"}`,
	`{"objectID": "l3", "name": "Trail shoe green"}`, `{"objectID": "l4", "name": "Trail shoe black"}`,
}

var _ = Describe("Ranking from events: customRanking _popularity (issue 24)", Ordered, func() {
	var ci catalogIndex
	var versions map[string]int64
	byPopularity := []string{"l4", "l3", "l1", "l2"}
	order := func() []string { return searchIn(ci, `{"q": "trail shoe"}`).ids() }

	BeforeAll(func() {
		ci = rankedIndex("learn-popularity", popularitySettings, popularityRecords...)
		Eventually(order).Should(Equal([]string{"l1", "l2", "l3", "l4"}), "no events yet: objectID decides")
		versions = map[string]int64{}
		for _, id := range []string{"l1", "l2", "l3", "l4"} {
			versions[id], _ = recordVersion(ci, id)
		}
		evs := repeated(4, `{"type": "click", "objectID": "l3", "position": 3, "query": "trail shoe"}`)
		for i := 0; i < 3; i++ {
			evs = append(evs, fmt.Sprintf(`{"type": "purchase", "orderID": "o-%d", "items": [{"objectID": "l4"}]}`, i))
		}
		learningEvents(ci, evs...)
	})

	It("puts the products shoppers buy and click first among equal matches, and explains their level", func() {
		Eventually(order).WithTimeout(30 * time.Second).Should(Equal(byPopularity))
		res := searchIn(ci, `{"q": "trail shoe", "explain": true}`)
		Expect(res.Hits[0].Ranking["custom"]).To(HaveKeyWithValue("_popularity", BeNumerically(">", 0)))
		Expect(res.Hits[3].Ranking["custom"]).To(HaveKeyWithValue("_popularity", 0.0))
		Expect(searchIn(ci, `{}`).ids()).To(Equal(byPopularity), "the browse page too")
	})

	It("never changes a record's version, its body or a conditional write's outcome", func() {
		for id, v := range versions {
			got, body := recordVersion(ci, id)
			Expect(got).To(Equal(v), id)
			Expect(body).NotTo(ContainSubstring("popularity"))
		}
		write := call(0, http.MethodPost, ci.base+"/record-writes", ci.writeKey, map[string]any{"operation": "upsert",
			"objectID": "l4", "record": map[string]any{"objectID": "l4", "name": "Trail shoe black"}, "expectedVersion": versions["l4"]})
		Expect(write.status).To(Equal(http.StatusAccepted), "the version signals left alone is still the one to expect")
		Eventually(order).Should(Equal(byPopularity))
	})

	It("survives a full replacement, a staged replacement and a rebuild: the signals are not the catalog's", func() {
		recs := make([]map[string]any, len(popularityRecords))
		for i, r := range popularityRecords {
			Expect(json.Unmarshal([]byte(r), &recs[i])).To(Succeed())
		}
		Expect(call(0, http.MethodPut, ci.base+"/records", ci.writeKey, recordsBody(recs)).status).To(Equal(http.StatusAccepted))
		Expect(order()).To(Equal(byPopularity), "after PUT /records")

		stage := ci.base + "/staged-replacements/learn"
		Expect(call(0, http.MethodPost, stage, ci.writeKey, nil).status).To(Equal(http.StatusCreated))
		Expect(call(0, http.MethodPost, stage+"/batches/b1", ci.writeKey, recordsBody(recs)).status).To(Equal(http.StatusOK))
		Expect(call(0, http.MethodPost, stage+"/commit", ci.writeKey, map[string]any{"expectedBatches": 1, "expectedRecords": 4}).status).
			To(Equal(http.StatusAccepted))
		Expect(order()).To(Equal(byPopularity), "after a staged replacement")

		cfg := `{"searchableFields": [{"path": "name"}], "language": "generic", "customRanking": [{"field": "_popularity"}],
			"eventRanking": {"enabled": true}}`
		Expect(call(0, http.MethodPut, ci.base+"/config", ci.writeKey, []byte(cfg)).status).To(Equal(http.StatusOK))
		Eventually(func() searchv1alpha1.RebuildState {
			if st := rebuildStatus(ci); st != nil {
				return st.State
			}
			return ""
		}).WithTimeout(2 * time.Minute).WithPolling(500 * time.Millisecond).Should(Equal(searchv1alpha1.RebuildSucceeded))
		Expect(order()).To(Equal(byPopularity), "after a rebuild")
	})

	It("keeps the signals under the index's names, so they go with it", func() {
		Expect(ci.names.Signals()).To(HavePrefix(strings.TrimSuffix(ci.names.AllPattern(), "*")))
		Expect(rawDocs(ci.names.Signals())).NotTo(BeEmpty())
	})
})

var reRankingSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
	ReRanking:        &searchv1alpha1.ReRanking{Enabled: true, MinSearches: 3, Strength: 100},
}

var _ = Describe("Re-ranking the first page from clicks (issue 24)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		ci = rankedIndex("learn-rerank", reRankingSettings,
			`{"objectID": "r1", "name": "Wool sock one"}`, `{"objectID": "r2", "name": "Wool sock two"}`,
			`{"objectID": "r3", "name": "Wool sock three"}`, `{"objectID": "r4", "name": "Wool sock four"}`,
			`{"objectID": "r5", "name": "Wool sock five"}`, `{"objectID": "r6", "name": "Wool sock six"}`,
			`{"objectID": "towel", "name": "Cotton towel"}`)
		Eventually(func() []string { return searchIn(ci, `{"q": "wool sock"}`).ids() }).
			Should(Equal([]string{"r1", "r2", "r3", "r4", "r5", "r6"}))
		putRules(ci, `{"objectID": "pin", "conditions": [{"pattern": "wool sock", "anchoring": "is"}],
			"consequence": {"promote": [{"objectID": "r6", "position": 1}], "hide": ["r3"]}}`)
		for i := 0; i < 3; i++ {
			searchIn(ci, `{"q": "wool sock"}`)
		}
		// Shoppers click r5 at its fifth place, far more than its place explains; a flood
		// of clicks names a record the text does not match, and the hidden r3.
		learningEvents(ci, append(append(repeated(40, `{"type": "click", "objectID": "r5", "position": 5, "query": "wool sock"}`),
			repeated(40, `{"type": "click", "objectID": "towel", "position": 2, "query": "wool sock"}`)...),
			repeated(40, `{"type": "click", "objectID": "r3", "position": 3, "query": "wool sock"}`)...)...)
	})

	It("moves the record clicked more than its position explains up within the first page, and explains the shift", func() {
		Eventually(func() []string { return searchIn(ci, `{"q": "wool sock"}`).ids() }).
			WithTimeout(30*time.Second).WithPolling(500*time.Millisecond).
			Should(Equal([]string{"r6", "r5", "r1", "r2", "r4"}), "r6 stays pinned first, r3 stays hidden, the towel never shows")
		res := searchIn(ci, `{"q": "wool sock", "explain": true}`)
		Expect(res.Hits[1].Ranking["reRank"]).To(And(HaveKeyWithValue("from", 5.0), HaveKeyWithValue("to", 2.0),
			HaveKeyWithValue("score", BeNumerically(">", 0))))
		Expect(res.Hits[2].Ranking).NotTo(HaveKey("reRank"))
	})

	It("leaves other queries, later pages and sorted searches alone", func() {
		Expect(searchIn(ci, `{"q": "wool"}`).ids()).To(Equal([]string{"r1", "r2", "r3", "r4", "r5", "r6"}), "no clicks for this query, nor rules")
		Expect(searchIn(ci, `{"q": "wool sock", "offset": 1}`).ids()).To(Equal([]string{"r1", "r2", "r4", "r5"}))
	})
})
