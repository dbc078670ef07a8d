package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/searchlog"
)

// suggestionsOf reads suggestions from replica i; the answer is checked against the
// OpenAPI document.
func suggestionsOf(i int, path, key string, headers map[string]string) []searchlog.Suggestion {
	GinkgoHelper()
	r := callWith(i, http.MethodGet, path, key, nil, headers)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var body struct {
		Suggestions []searchlog.Suggestion `json:"suggestions"`
	}
	Expect(json.Unmarshal(r.body, &body)).To(Succeed())
	return body.Suggestions
}

func queriesOf(list []searchlog.Suggestion) []string {
	out := []string{}
	for _, s := range list {
		out = append(out, s.Query)
	}
	return out
}

var _ = Describe("Query suggestions (issue 24)", Ordered, func() {
	var ci catalogIndex
	var public string
	origin := map[string]string{"Origin": apparelOrigin}

	BeforeAll(func() {
		name := fmt.Sprintf("suggest-%d", GinkgoParallelProcess())
		settings := *apparelSettings.DeepCopy()
		settings.Suggestions = &searchv1alpha1.SuggestionsSetting{MinDays: new(int32(2)), Exclude: []string{"Warm"}}
		policy := &searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"color"}}
		ci = rankedIndexWith(name, settings, []searchv1alpha1.Origin{apparelOrigin}, policy, apparelRecords...)
		public = "/api/public/indexes/pub-shop-" + name + "/suggestions"
		Eventually(func() int64 { return searchCount(ci) }).Should(BeEquivalentTo(len(apparelRecords)))

		// Three days of searches, the clock moved a day between them: "wool sock" is
		// searched often but on one day only, "zzz" finds nothing, "warm hoodie" holds an
		// excluded word.
		days := [][]string{
			{"Cotton tee", "cotton tee", "wool socks", "wool sock", "wool sock", "wool sock", "zzz", "warm hoodie"},
			{"cotton tee", "wool socks", "zzz", "warm hoodie", "baseball cap"},
			{"cotton tee", "zzz", "warm hoodie", "baseball cap"},
		}
		searched := 0
		for i, day := range days {
			if i > 0 {
				shiftClock(24 * time.Hour)
			}
			for _, q := range day {
				Expect(post(ci.base+"/search", ci.searchKey, `{"q": "`+q+`"}`).Code).To(Equal(http.StatusOK))
			}
			searched += len(day)
			Eventually(func() []searchlog.Record { return loggedSearches(ci) }).Should(HaveLen(searched))
		}
	})

	It("suggests popular past searches that found something, matching what is typed as a prefix, most searched first", func() {
		list := suggestionsOf(0, ci.base+"/suggestions", ci.searchKey, nil)
		Expect(list).To(Equal([]searchlog.Suggestion{
			{Query: "cotton tee", Searches: 4, Hits: 1}, {Query: "baseball cap", Searches: 2, Hits: 1}, {Query: "wool socks", Searches: 2, Hits: 2},
		}), "everything typed: never a query of one day, one that found nothing or one holding an excluded word")
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=Co", ci.searchKey, nil))).To(Equal([]string{"cotton tee"}))
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=cottn%20t", ci.searchKey, nil))).To(Equal([]string{"cotton tee"}), "with a typo")
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=wool%20s", ci.searchKey, nil))).To(Equal([]string{"wool socks"}))
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=tee", ci.searchKey, nil))).To(BeEmpty(), "not from a later word")
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=warm", ci.searchKey, nil))).To(BeEmpty())
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=zz", ci.searchKey, nil))).To(BeEmpty())
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?limit=1", ci.searchKey, nil))).To(Equal([]string{"cotton tee"}))
	})

	It("honours the distinct-days threshold: a query searched on fewer days is never suggested, however often", func() {
		Expect(queriesOf(suggestionsOf(0, ci.base+"/suggestions?q=wool", ci.searchKey, nil))).NotTo(ContainElement("wool sock"))
		settings := *apparelSettings.DeepCopy()
		settings.Suggestions = &searchv1alpha1.SuggestionsSetting{MinDays: new(int32(3)), Exclude: []string{"Warm"}}
		body, err := json.Marshal(map[string]any{"suggestions": settings.Suggestions, "searchableFields": settings.SearchableFields,
			"filterableFields": settings.FilterableFields, "facetFields": settings.FacetFields, "customRanking": settings.CustomRanking,
			"distinct": settings.Distinct})
		Expect(err).NotTo(HaveOccurred())
		Expect(call(0, http.MethodPut, ci.base+"/config", ci.writeKey, body).status).To(Equal(http.StatusOK))
		Eventually(func() []string { return queriesOf(suggestionsOf(0, ci.base+"/suggestions", ci.searchKey, nil)) }).
			Should(Equal([]string{"cotton tee"}), "three days now: the queries of two days are gone")
	})

	It("adds the top values of the first facet field, and on the public twin of the first facet the policy allows", func() {
		list := suggestionsOf(0, ci.base+"/suggestions?q=cot&categories=true", ci.searchKey, nil)
		Expect(list).To(HaveLen(1))
		Expect(list[0].Categories).To(HaveLen(1))
		Expect(list[0].Categories[0].Value).To(Equal("acme"))
		list = suggestionsOf(0, public+"?q=cot&categories=true", "", origin)
		Expect(list).To(HaveLen(1))
		Expect(list[0].Categories).NotTo(BeEmpty())
		Expect(list[0].Categories[0].Value).To(BeElementOf("red", "blue", "green"))
	})

	It("answers the public twin for an allowed origin only, under the public rate limits", func() {
		Expect(callWith(0, http.MethodGet, public+"?q=co", "", nil, map[string]string{"Origin": "https://elsewhere.test"}).status).
			To(Equal(http.StatusForbidden))
		Expect(callWith(0, http.MethodGet, ci.base+"/suggestions", ci.writeKey, nil, nil).status).To(Equal(http.StatusForbidden), "a key without search")
		stopped := time.Now()
		limited := newServer(apiserver.PublicLimits{PerVisitor: 1, Clock: func() time.Time { return stopped }})
		Expect(send(limited, http.MethodGet, public+"?q=co", "", "", origin).Code).To(Equal(http.StatusOK))
		Expect(send(limited, http.MethodGet, public+"?q=co", "", "", origin).Code).To(Equal(http.StatusTooManyRequests))
	})
})
