package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var whyNotCounter atomic.Int64

// whyNotSettings: one searchable field, so that the two records of a pair differ only
// in what causes their reason.
var whyNotSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "channel", "group"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
}

// whyNotRecords come in pairs, one per reason: the second record of each pair is the
// one asked about. The public policy shows channel web only.
var whyNotRecords = []string{
	`{"objectID": "m1", "name": "Walnut desk", "channel": "web", "popularity": 1}`,
	`{"objectID": "m2", "name": "Walnut dresser", "channel": "web", "popularity": 1}`,
	`{"objectID": "f1", "name": "Brass lamp", "brand": "Oak", "channel": "web", "popularity": 1}`,
	`{"objectID": "f2", "name": "Brass lamp", "brand": "Pine", "channel": "web", "popularity": 1}`,
	`{"objectID": "h1", "name": "Glass vase", "channel": "web", "popularity": 1}`,
	`{"objectID": "h2", "name": "Glass vase", "channel": "web", "popularity": 1}`,
	`{"objectID": "r1", "name": "Linen shirt", "channel": "web", "popularity": 50}`,
	`{"objectID": "r2", "name": "Linen shirt", "channel": "web", "popularity": 10}`,
	`{"objectID": "p1", "name": "Cedar box", "channel": "web", "popularity": 2}`,
	`{"objectID": "p2", "name": "Cedar box", "channel": "store", "popularity": 1}`,
}

// whyNotAnswer is the part of a search answer the why-not specs read.
type whyNotAnswer struct {
	Hits []struct {
		ObjectID string         `json:"objectID"`
		Ranking  map[string]any `json:"ranking"`
	} `json:"hits"`
	WhyNot *struct {
		ObjectID string `json:"objectID"`
		Position *int   `json:"position"`
		Reasons  []struct {
			Reason string         `json:"reason"`
			Detail map[string]any `json:"detail"`
		} `json:"reasons"`
	} `json:"whyNot"`
}

func (a whyNotAnswer) reasons() []string {
	var out []string
	for _, r := range a.WhyNot.Reasons {
		out = append(out, r.Reason)
	}
	return out
}

func (a whyNotAnswer) detail(reason string) map[string]any {
	for _, r := range a.WhyNot.Reasons {
		if r.Reason == reason {
			return r.Detail
		}
	}
	return nil
}

// whyNot searches ci with body, asking why objectID is not on the page.
func whyNot(ci catalogIndex, body, objectID string) whyNotAnswer {
	GinkgoHelper()
	full := strings.TrimSuffix(strings.TrimSpace(body), "}") + fmt.Sprintf(`, "explain": {"objectID": %q}}`, objectID)
	r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(full))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var a whyNotAnswer
	Expect(json.Unmarshal(r.body, &a)).To(Succeed(), string(r.body))
	Expect(a.WhyNot).NotTo(BeNil(), string(r.body))
	Expect(a.WhyNot.ObjectID).To(Equal(objectID))
	return a
}

var _ = Describe("Why not (issue 36)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		policy := &searchv1alpha1.PublicSearchPolicy{ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "channel", Values: []string{"web"}}}}
		ci = rankedIndexWith(fmt.Sprintf("whynot-%d-%d", GinkgoParallelProcess(), whyNotCounter.Add(1)), whyNotSettings, nil, policy, whyNotRecords...)
		Eventually(func() int64 { return searchIn(ci, `{"q": ""}`).Total }).Should(BeEquivalentTo(len(whyNotRecords)))
	})

	It("places a record on the page at its position, with no reason, and leaves the boolean explain as it was", func() {
		a := whyNot(ci, `{"q": "walnut desk"}`, "m1")
		Expect(*a.WhyNot.Position).To(Equal(1))
		Expect(a.WhyNot.Reasons).To(BeEmpty())
		Expect(a.Hits[0].Ranking).To(HaveKeyWithValue("words", 2.0), "the object form explains the hits too")
		r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "walnut desk", "explain": true}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Expect(string(r.body)).NotTo(ContainSubstring("whyNot"))
		Expect(string(r.body)).To(ContainSubstring(`"ranking"`))
	})

	It("missingWords: names the query word the record does not hold, with its closest word, and the criterion that put it below", func() {
		a := whyNot(ci, `{"q": "walnut desk", "limit": 1}`, "m2")
		Expect(a.Hits[0].ObjectID).To(Equal("m1"))
		Expect(*a.WhyNot.Position).To(Equal(2))
		Expect(a.reasons()).To(Equal([]string{"missingWords", "ranked"}))
		Expect(a.detail("missingWords")).To(Equal(map[string]any{"words": []any{map[string]any{"word": "desk", "closest": "dresser"}}, "matchesQuery": true}))
		Expect(a.detail("ranked")).To(Equal(map[string]any{"criterion": "words", "objectID": "m1", "above": 2.0, "value": 1.0}))
	})

	It("filtered: names the request's filter, or its facetFilters field, that excludes the record", func() {
		a := whyNot(ci, `{"q": "brass lamp", "filters": {"field": "brand", "eq": "Oak"}}`, "f2")
		Expect(a.WhyNot.Position).To(BeNil())
		Expect(a.reasons()).To(Equal([]string{"filtered"}))
		Expect(a.detail("filtered")).To(Equal(map[string]any{"filter": "filters"}))
		a = whyNot(ci, `{"q": "brass lamp", "facetFilters": {"brand": ["Oak"]}}`, "f2")
		Expect(a.detail("filtered")).To(Equal(map[string]any{"filter": "facetFilters.brand"}))
		Expect(whyNot(ci, `{"q": "brass lamp", "filters": {"field": "brand", "eq": "Oak"}}`, "f1").WhyNot.Reasons).To(BeEmpty())
	})

	It("filtered: names a secured key's filters", func() {
		key := derive(ci.searchKey, securedkey.Restrictions{Filters: map[string]any{"field": "brand", "eq": "Oak"}})
		r := call(0, http.MethodPost, ci.base+"/search", key, []byte(`{"q": "brass lamp", "explain": {"objectID": "f2"}}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var a whyNotAnswer
		Expect(json.Unmarshal(r.body, &a)).To(Succeed())
		Expect(a.reasons()).To(Equal([]string{"filtered"}))
		Expect(a.detail("filtered")).To(Equal(map[string]any{"filter": "securedKey.filters"}))
	})

	It("is answered by a single search only: a multi-search refuses it in its query", func() {
		res := multiResults(call(0, http.MethodPost, "/api/teams/shop/multi-search", ci.searchKey,
			queries(`{"index": "`+ci.name+`", "q": "box", "explain": {"objectID": "p1"}}`, `{"index": "`+ci.name+`", "q": "box"}`)))
		Expect(res).To(HaveLen(2))
		Expect(res[0].Status).To(Equal(http.StatusBadRequest))
		Expect(res[0].Error).To(ContainSubstring("why not is answered by a single search (POST /search)"))
		Expect(res[1].Error).To(BeEmpty(), "the other queries run")
	})

	It("filtered: names the rule whose filters exclude the record", func() {
		putRules(ci, `{"objectID": "oak-lamps", "conditions": [{"pattern": "brass", "anchoring": "contains"}],
			"consequence": {"filters": {"field": "brand", "eq": "Oak"}}}`)
		a := whyNot(ci, `{"q": "brass lamp"}`, "f2")
		Expect(a.reasons()).To(Equal([]string{"filtered"}))
		Expect(a.detail("filtered")).To(Equal(map[string]any{"filter": "rule", "rule": "oak-lamps"}))
	})

	It("hidden: names the rule that hides the record", func() {
		putRules(ci, `{"objectID": "no-h2", "conditions": [{"pattern": "vase", "anchoring": "contains"}], "consequence": {"hide": ["h2"]}}`)
		a := whyNot(ci, `{"q": "glass vase"}`, "h2")
		Expect(a.WhyNot.Position).To(BeNil())
		Expect(a.reasons()).To(Equal([]string{"hidden"}))
		Expect(a.detail("hidden")).To(Equal(map[string]any{"rule": "no-h2"}))
		Expect(whyNot(ci, `{"q": "glass vase"}`, "h1").WhyNot.Reasons).To(BeEmpty())
	})

	It("ranked: names the criterion by which the page's last hit beat the record, with both values", func() {
		a := whyNot(ci, `{"q": "linen shirt", "limit": 1}`, "r2")
		Expect(*a.WhyNot.Position).To(Equal(2))
		Expect(a.reasons()).To(Equal([]string{"ranked"}))
		Expect(a.detail("ranked")).To(Equal(map[string]any{"criterion": "custom", "field": "popularity", "objectID": "r1", "above": 50.0, "value": 10.0}))
	})

	It("answers for the search as it settled, when matchingStrategy all dropped a word that matched nothing", func() {
		a := whyNot(ci, `{"q": "linen shirt zebra", "matchingStrategy": "all", "limit": 1}`, "r2")
		Expect(a.Hits[0].ObjectID).To(Equal("r1"))
		Expect(a.WhyNot.Position).NotTo(BeNil(), "the search without zebra matches it")
		Expect(*a.WhyNot.Position).To(Equal(2))
		Expect(a.reasons()).To(Equal([]string{"ranked"}))
		Expect(a.detail("ranked")).To(Equal(map[string]any{"criterion": "custom", "field": "popularity", "objectID": "r1", "above": 50.0, "value": 10.0}))
	})

	It("policy: says a keyed search shows the record that public search, under the index's policy, would not", func() {
		a := whyNot(ci, `{"q": "cedar box"}`, "p2")
		Expect(*a.WhyNot.Position).To(Equal(2))
		Expect(a.reasons()).To(Equal([]string{"policy"}))
		Expect(a.detail("policy")).To(Equal(map[string]any{"filter": "forcedFilters[0]"}))
		Expect(whyNot(ci, `{"q": "cedar box"}`, "p1").WhyNot.Reasons).To(BeEmpty())
	})

	It("notFound: says the index holds no such record", func() {
		a := whyNot(ci, `{"q": "cedar box"}`, "nope")
		Expect(a.WhyNot.Position).To(BeNil())
		Expect(a.reasons()).To(Equal([]string{"notFound"}))
	})

	DescribeTable("refuses an explain that is not true, false or an objectID, with a 400 naming it",
		func(explain, message string) {
			r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "box", "explain": `+explain+`}`))
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			var body map[string]string
			Expect(json.Unmarshal(r.body, &body)).To(Succeed(), string(r.body))
			Expect(body["error"]).To(ContainSubstring(message))
		},
		Entry("an objectID that is not a string", `{"objectID": 5}`, "objectID must be a string"),
		Entry("an objectID over 512 bytes", `{"objectID": "`+strings.Repeat("a", 513)+`"}`, "objectID must be at most 512 bytes"),
		Entry("an empty objectID", `{"objectID": ""}`, "objectID must not be empty"),
		Entry("no objectID", `{}`, "objectID is required"),
		Entry("another member", `{"objectID": "p1", "why": true}`, "no other member"),
		Entry("a number", `1`, `must be true, false or {"objectID": "..."}`),
	)
})

var _ = Describe("Why not with distinct (issue 36)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		settings := *whyNotSettings.DeepCopy()
		settings.Distinct = &searchv1alpha1.DistinctSetting{Field: "group"}
		ci = rankedIndex(fmt.Sprintf("whynot-distinct-%d-%d", GinkgoParallelProcess(), whyNotCounter.Add(1)), settings,
			`{"objectID": "g1", "name": "Wool sock", "group": "socks", "popularity": 50}`,
			`{"objectID": "g2", "name": "Wool sock", "group": "socks", "popularity": 10}`)
		Eventually(func() int64 { return searchIn(ci, `{"q": "", "distinct": false}`).Total }).Should(BeEquivalentTo(2))
	})

	It("distinct: names the record of its group shown instead", func() {
		a := whyNot(ci, `{"q": "wool sock"}`, "g2")
		Expect(a.WhyNot.Position).To(BeNil())
		Expect(a.reasons()).To(Equal([]string{"distinct"}))
		Expect(a.detail("distinct")).To(Equal(map[string]any{"objectID": "g1"}))
	})
})
