package apiserver_test

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Faceted navigation (issue 22)", func() {
	Describe("facetStats", func() {
		It("gives the bounds of a numeric facet's values over the matching records", func() {
			res := searchApparel(`{"distinct": false, "facets": ["price", "brand"]}`)
			Expect(res.FacetStats).To(Equal(map[string]map[string]float64{"price": {"min": 9, "max": 65, "avg": 30.625, "sum": 245}}))
			res = searchApparel(`{"q": "tee", "distinct": false, "facets": ["price"]}`)
			Expect(res.FacetStats["price"]).To(Equal(map[string]float64{"min": 20, "max": 24, "avg": 22, "sum": 66}))
		})

		It("takes them under the other facets' selections", func() {
			res := searchApparel(`{"distinct": false, "facets": ["price"], "facetFilters": {"brand": ["globex"], "price": [30]}}`)
			Expect(res.ids()).To(Equal([]string{"sock-2"}))
			Expect(res.FacetStats["price"]).To(Equal(map[string]float64{"min": 30, "max": 65, "avg": 155.0 / 3, "sum": 155}))
		})

		It("is absent for facets that hold no numbers", func() {
			Expect(searchApparel(`{"facets": ["brand"]}`).FacetStats).To(BeNil())
		})
	})

	Describe("disjunctive facets", func() {
		It("keep showing the other brands with their counts once one is selected, and the hits obey the selection", func() {
			res := searchApparel(`{"distinct": false, "facets": ["brand", "color"], "facetFilters": {"brand": ["acme"]}}`)
			Expect(res.ids()).To(ConsistOf("tee-red", "tee-blue", "tee-green", "sock-1"))
			Expect(res.Total).To(BeEquivalentTo(4))
			Expect(res.Facets["brand"]).To(ConsistOf(
				map[string]any{"value": "acme", "count": 4.0}, map[string]any{"value": "globex", "count": 3.0},
				map[string]any{"value": "initech", "count": 1.0}))
			Expect(res.Facets["color"]).To(ConsistOf(
				map[string]any{"value": "blue", "count": 2.0}, map[string]any{"value": "red", "count": 1.0},
				map[string]any{"value": "green", "count": 1.0}), "the colours of acme's records")
		})

		It("count each facet under the other facets' selections, OR within a facet and AND across", func() {
			res := searchApparel(`{"distinct": false, "facets": ["brand", "color"], "facetFilters": {"brand": ["acme", "initech"], "color": ["red"]},
				"filters": {"field": "price", "range": {"lt": 50}}}`)
			Expect(res.ids()).To(ConsistOf("tee-red", "cap-red"))
			Expect(res.Facets["brand"]).To(ConsistOf(
				map[string]any{"value": "acme", "count": 1.0}, map[string]any{"value": "initech", "count": 1.0}),
				"the red records under 50: hood-red costs 65")
			Expect(res.Facets["color"]).To(ConsistOf(
				map[string]any{"value": "blue", "count": 2.0}, map[string]any{"value": "red", "count": 2.0},
				map[string]any{"value": "green", "count": 1.0}))
		})

		It("refuse a selection on a field that is not a facet field", func() {
			a := apparelIndex()
			r := call(0, http.MethodPost, a.ci.base+"/search", a.ci.searchKey, []byte(`{"facetFilters": {"groupId": ["tee"]}}`))
			expectRefused(r, http.StatusBadRequest, `facetFilters.groupId: "groupId" is not a facet field`)
		})
	})

	Describe("facet value search", func() {
		search := func(field, body string) (int, string) {
			a := apparelIndex()
			r := call(0, http.MethodPost, a.ci.base+"/facets/"+field+"/search", a.ci.searchKey, []byte(body))
			return r.status, string(r.body)
		}

		DescribeTable("finds the values starting with the query, with typos, counted within the search",
			func(field, body, want string) {
				code, res := search(field, body)
				Expect(code).To(Equal(http.StatusOK), res)
				Expect(res).To(MatchJSON(want))
			},
			Entry("a prefix", "brand", `{"facetQuery": "glo"}`, `{"values": [{"value": "globex", "count": 3, "highlighted": "<em>glo</em>bex"}]}`),
			Entry("a typo", "brand", `{"facetQuery": "glbex"}`, `{"values": [{"value": "globex", "count": 3, "highlighted": "<em>globex</em>"}]}`),
			Entry("within q", "brand", `{"q": "socks"}`, `{"values": [{"value": "acme", "count": 1, "highlighted": "acme"},
				{"value": "globex", "count": 1, "highlighted": "globex"}]}`),
			Entry("under the other facets' selections, not its own", "brand", `{"facetFilters": {"brand": ["acme"], "color": ["red"]}, "maxValues": 2}`,
				`{"values": [{"value": "acme", "count": 1, "highlighted": "acme"}, {"value": "globex", "count": 1, "highlighted": "globex"}]}`),
			Entry("another facet's values", "color", `{"facetQuery": "r"}`, `{"values": [{"value": "red", "count": 3, "highlighted": "<em>r</em>ed"}]}`),
		)

		It("refuses a field that is not a facet field", func() {
			code, res := search("groupId", `{}`)
			Expect(code).To(Equal(http.StatusBadRequest))
			Expect(res).To(ContainSubstring(`field: \"groupId\" is not a facet field`))
		})

		Describe("from a browser", func() {
			publicSearch := func(field, body, origin string) response {
				a := apparelIndex()
				return callWith(0, http.MethodPost, "/api/public/indexes/"+a.publicID+"/facets/"+field+"/search", "", []byte(body),
					map[string]string{"Origin": origin, "User-Agent": "facet-spec"})
			}

			It("counts under the policy's forced filters", func() {
				r := publicSearch("brand", `{}`, apparelOrigin)
				Expect(r.status).To(Equal(http.StatusOK), string(r.body))
				Expect(r.header.Get("Access-Control-Allow-Origin")).To(Equal(apparelOrigin))
				Expect(string(r.body)).To(MatchJSON(`{"values": [{"value": "acme", "count": 4, "highlighted": "acme"},
					{"value": "globex", "count": 1, "highlighted": "globex"}, {"value": "initech", "count": 1, "highlighted": "initech"}]}`))
			})

			It("refuses a facet outside the policy's allowedFacets", func() {
				r := publicSearch("color", `{}`, apparelOrigin)
				expectRefused(r, http.StatusBadRequest, `field: "color" is not allowed in public facets (allowed: brand)`)
			})

			It("refuses an origin the index does not allow", func() {
				Expect(publicSearch("brand", `{}`, "https://other.test").status).To(Equal(http.StatusForbidden))
			})
		})
	})
})

var _ = Describe("Variants (issue 22)", func() {
	It("returns the best-ranked record of each group, records without the field each a group, and counts groups", func() {
		res := searchApparel(`{"facets": ["brand"]}`)
		Expect(res.ids()).To(Equal([]string{"hood-grey", "sock-1", "tee-red", "cap-red", "sock-2"}))
		Expect(res.Total).To(BeEquivalentTo(5))
		Expect(res.Facets["brand"]).To(ContainElement(map[string]any{"value": "acme", "count": 4.0}), "facets count records")
	})

	It("returns two hits a group with distinct 2, a group's hits together", func() {
		res := searchApparel(`{"distinct": 2}`)
		Expect(res.ids()).To(Equal([]string{"hood-grey", "hood-red", "sock-1", "tee-red", "tee-blue", "cap-red", "sock-2"}))
		Expect(res.Total).To(BeEquivalentTo(5))
	})

	It("pages over groups", func() {
		Expect(searchApparel(`{"offset": 2, "limit": 2}`).ids()).To(Equal([]string{"tee-red", "cap-red"}))
		Expect(searchApparel(`{"offset": 2, "limit": 2, "distinct": 2}`).ids()).To(Equal([]string{"tee-red", "tee-blue", "cap-red"}))
		Expect(searchApparel(`{"offset": 4, "limit": 2}`).ids()).To(Equal([]string{"sock-2"}))
	})

	It("gives each hit the other records of its group as variants, up to variantsLimit", func() {
		res := searchApparel(`{"variantsLimit": 2, "fields": ["name", "color"]}`)
		Expect(res.variantsOf("tee-red")).To(Equal([]string{"tee-blue", "tee-green"}))
		Expect(res.variantsOf("hood-grey")).To(Equal([]string{"hood-red"}))
		Expect(res.variantsOf("sock-1")).To(BeEmpty())
		Expect(res.Hits[2].Variants[0].Record).To(Equal(map[string]any{"objectID": "tee-blue", "name": "Cotton tee blue", "color": "blue"}))
		Expect(searchApparel(`{"variantsLimit": 1}`).variantsOf("tee-red")).To(Equal([]string{"tee-blue"}))
	})

	It("groups within the query and the selections", func() {
		res := searchApparel(`{"q": "red", "facetFilters": {"color": ["red"]}, "facets": ["color"]}`)
		Expect(res.ids()).To(ConsistOf("tee-red", "hood-red"))
		Expect(res.Total).To(BeEquivalentTo(2))
	})

	It("is turned off by the request", func() {
		res := searchApparel(`{"distinct": false}`)
		Expect(res.Total).To(BeEquivalentTo(8))
		Expect(res.ids()).To(HaveLen(8))
	})
})

var _ = Describe("Variants of a field holding several values (issue 22)", func() {
	It("refuse the search with 400, saying why", func() {
		ci := rankedIndex(fmt.Sprintf("multi-group-%d", GinkgoParallelProcess()), apparelSettings,
			`{"objectID": "a", "name": "shirt", "groupId": ["g1", "g2"]}`, `{"objectID": "b", "name": "shirt", "groupId": "g1"}`)
		r := call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{}`))
		expectRefused(r, http.StatusBadRequest, "a record holds several values of the distinct field")
		Expect(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"distinct": false}`)).status).To(Equal(http.StatusOK))
	})
})
