package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/api/securedkey"
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// A rule promotes records whatever the query's text matches, never whatever the search's
// filters say: the restrictions of a secured key, a public policy's forced filters and a
// shopper's selections hold for promoted records as for the others (issue 22).
var _ = Describe("Records promoted by a rule, under the filters a search must obey (issue 22)", Ordered, func() {
	var ci catalogIndex
	const origin = "https://pins.example"
	// Every record that is not a walnut desk is promoted for "walnut desk": l1 (Oak, in
	// stock), l2 (Pine, out of stock) and c1 (Acme, in stock).
	const pins = `{"objectID": "pin-all", "conditions": [{"pattern": "walnut desk", "anchoring": "is"}],
		"consequence": {"promote": [{"objectID": "l1", "position": 1}, {"objectID": "l2", "position": 2}, {"objectID": "c1", "position": 3}]}}`

	BeforeAll(func() {
		ci = rankedIndexWith(fmt.Sprintf("rules-scope-%d", GinkgoParallelProcess()), merchSettings, []searchv1alpha1.Origin{origin},
			&searchv1alpha1.PublicSearchPolicy{MaxHits: 20, RetrievableFields: []searchv1alpha1.FieldPath{"name", "brand"},
				ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}},
				AllowedFacets: []searchv1alpha1.FieldPath{"brand"}, AllowedFilters: []searchv1alpha1.FieldPath{"brand"}},
			merchRecords...)
		putRules(ci, pins)
		Eventually(func() []string { return ruledSearch(ci, `{"q": "walnut desk"}`).ids() }).
			Should(Equal([]string{"l1", "l2", "c1", "d2", "d1", "d3"}), "with the search key alone, every promoted record shows")
	})

	searchAs := func(key, body string) ruledResult {
		GinkgoHelper()
		r := call(0, http.MethodPost, ci.base+"/search", key, []byte(body))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var res ruledResult
		Expect(json.Unmarshal(r.body, &res)).To(Succeed())
		return res
	}

	It("keeps out what a secured key's filters exclude, in search and multi-search", func() {
		key := derive(ci.searchKey, securedkey.Restrictions{Filters: map[string]any{"field": "brand", "eq": "Pine"}})
		res := searchAs(key, `{"q": "walnut desk"}`)
		Expect(res.ids()).To(Equal([]string{"d2", "l2", "d3"}))
		Expect(res.Total).To(BeNumerically("==", 3))

		r := call(0, http.MethodPost, "/api/teams/shop/multi-search", key, []byte(`{"queries": [{"index": "`+ci.name+`", "q": "walnut desk"}]}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var multi struct{ Results []ruledResult }
		Expect(json.Unmarshal(r.body, &multi)).To(Succeed())
		Expect(multi.Results[0].ids()).To(Equal([]string{"d2", "l2", "d3"}))
	})

	It("keeps out what a shopper's facetFilters exclude, like the request's filters", func() {
		for _, body := range []string{
			`{"q": "walnut desk", "facetFilters": {"brand": ["Pine"]}}`,
			`{"q": "walnut desk", "filters": {"field": "brand", "eq": "Pine"}}`,
		} {
			res := searchAs(ci.searchKey, body)
			Expect(res.ids()).To(Equal([]string{"d2", "l2", "d3"}), body)
			Expect(res.Total).To(BeNumerically("==", 3), body)
		}
	})

	It("keeps out what the public policy's forced filters exclude, and the shopper's selection", func() {
		publicSearch := func(body string) ruledResult {
			GinkgoHelper()
			r := callWith(0, http.MethodPost, "/api/public/indexes/pub-shop-"+ci.name+"/search", "", []byte(body),
				map[string]string{"Origin": origin, "User-Agent": "rules-scope-spec"})
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var res ruledResult
			Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			return res
		}
		Expect(publicSearch(`{"q": "walnut desk"}`).ids()).To(Equal([]string{"l1", "d2", "c1", "d1", "d3"}), "l2 is out of stock")
		res := publicSearch(`{"q": "walnut desk", "facetFilters": {"brand": ["Pine"]}}`)
		Expect(res.ids()).To(Equal([]string{"d2", "d3"}))
		Expect(res.Total).To(BeNumerically("==", 2))
	})
})
