package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// consistencyRounds is how many changes each spec writes, alternating the replica that
// writes them.
const consistencyRounds = 50

// onBoth sends one request to each replica at once and returns their answers.
func onBoth(send func(replica int) (response, error)) [2]response {
	var out [2]response
	var errs [2]error
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = send(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
	}
	return out
}

// withFacets is settings whose facetFields are those of catalogSettings and, with price,
// price too.
func withFacets(price bool) searchv1alpha1.IndexSettings {
	s := *catalogSettings.DeepCopy()
	if price {
		s.FacetFields = append(s.FacetFields, "price")
	}
	return s
}

// newSettingsIndex creates index name in workspace shop with the catalog's records, its
// settings without a price facet, no public policy and keys to write and search, and
// waits until both replicas search it; it returns the index and its public search path.
func newSettingsIndex(name string) (catalogIndex, string) {
	createIndexWith("shop", name, withFacets(false), []searchv1alpha1.Origin{allowedOrigin}, nil)
	loadRecords("shop", name, withFacets(false), catalogRecords)
	role := "shop-" + name
	issueFor(role+"-w", "shop", []searchv1alpha1.Scope{"write"}, []string{name}, nil, nil)
	issueFor(role+"-s", "shop", []searchv1alpha1.Scope{"search"}, []string{name}, nil, nil)
	ix := catalogIndex{name: name, base: "/api/teams/shop/indexes/" + name, writeKey: keys[role+"-w"], searchKey: keys[role+"-s"]}
	for i := range 2 {
		Eventually(func() int {
			return call(i, http.MethodPost, ix.base+"/search", ix.searchKey, map[string]any{"q": ""}).status
		}).
			Should(Equal(http.StatusOK))
	}
	return ix, "/api/public/indexes/pub-shop-" + name + "/search"
}

var _ = Describe("A settings or policy change, once answered, is what the next search on any replica uses", Ordered, func() {
	var ix catalogIndex
	var public string

	BeforeAll(func() {
		ix, public = newSettingsIndex(fmt.Sprintf("fence-%d", GinkgoParallelProcess()))
	})

	It("accepts a facet on a field PUT /config just added, and refuses it once removed, on both replicas", func() {
		stale := 0
		for round := range consistencyRounds {
			price := round%2 == 0
			put := call(round, http.MethodPut, ix.base+"/config", ix.writeKey, withFacets(price))
			Expect(put.status).To(Equal(http.StatusOK), string(put.body))
			Expect(put.body).To(ContainSubstring(`"applied":["facetFields"]`))
			want := http.StatusBadRequest
			if price {
				want = http.StatusOK
			}
			for i, r := range onBoth(func(i int) (response, error) {
				return callE(i, http.MethodPost, ix.base+"/search", ix.searchKey, map[string]any{"q": "", "facets": []string{"price"}})
			}) {
				if r.status != want {
					stale++
					GinkgoWriter.Printf("round %d, replica %d: %d %s\n", round, i, r.status, r.body)
				}
			}
		}
		Expect(stale).To(BeZero(), "stale answers out of %d", 2*consistencyRounds)
	})

	It("shows a field again once DELETE /public-access/policy dropped the policy hiding it, and hides it once PUT wrote it, on both replicas", func() {
		hiding := map[string]any{"policy": map[string]any{"retrievableFields": []string{"name", "brand"}}}
		stale := 0
		for round := range consistencyRounds {
			hide := round%2 == 0
			var w response
			if hide {
				w = call(round, http.MethodPut, ix.base+"/public-access/policy", ix.writeKey, hiding)
			} else {
				w = call(round, http.MethodDelete, ix.base+"/public-access/policy", ix.writeKey, nil)
			}
			Expect(w.status).To(Equal(http.StatusOK), string(w.body))
			for i, r := range onBoth(func(i int) (response, error) {
				return callWithE(i, http.MethodPost, public, "", map[string]any{"q": "shoe"},
					map[string]string{"Origin": allowedOrigin, "User-Agent": fmt.Sprintf("fence-%d-%d", round, i)})
			}) {
				if r.status != http.StatusOK || showsPrice(r.body) == hide {
					stale++
					GinkgoWriter.Printf("round %d, replica %d: %d %s\n", round, i, r.status, r.body)
				}
			}
		}
		Expect(stale).To(BeZero(), "stale answers out of %d", 2*consistencyRounds)
	})
})

// showsPrice reports whether some hit of a search answer shows its price.
func showsPrice(body []byte) bool {
	var res searchResult
	ExpectWithOffset(1, json.Unmarshal(body, &res)).To(Succeed())
	ExpectWithOffset(1, res.Hits).NotTo(BeEmpty())
	for _, h := range res.Hits {
		if _, ok := h.Record["price"]; ok {
			return true
		}
	}
	return false
}

var _ = Describe("A public policy allowing a field the settings do not list", Ordered, func() {
	var ix catalogIndex
	var public string

	BeforeAll(func() {
		ix, public = newSettingsIndex(fmt.Sprintf("policy-fields-%d", GinkgoParallelProcess()))
	})

	It("is refused by PUT /public-access/policy, naming each such field and the settings' list", func() {
		r := call(0, http.MethodPut, ix.base+"/public-access/policy", ix.writeKey,
			map[string]any{"policy": map[string]any{"allowedFacets": []string{"brand", "price"}, "allowedSorts": []string{"name"}}})
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(r.body).To(MatchJSON(`{"error": "invalid policy: allowedFacets[1]: \"price\" is not in the settings' facetFields: add it there first (PUT /config); ` +
			`allowedSorts[0]: \"name\" is not in the settings' sortableFields: add it there first (PUT /config)"}`))
		Expect(call(1, http.MethodGet, ix.base+"/public-access", ix.writeKey, nil).body).To(ContainSubstring(`"allowedFacets":[]`), "nothing was written")
	})

	It("makes public search say the field is not in facetFields once the settings dropped it", func() {
		r := call(0, http.MethodPut, ix.base+"/public-access/policy", ix.writeKey,
			map[string]any{"policy": map[string]any{"allowedFacets": []string{"brand"}}})
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		withoutBrand := withFacets(false)
		withoutBrand.FacetFields = []searchv1alpha1.FieldPath{"specs.color", "inStock"}
		Expect(call(0, http.MethodPut, ix.base+"/config", ix.writeKey, withoutBrand).status).To(Equal(http.StatusOK))
		r, err := callWithE(1, http.MethodPost, public, "", map[string]any{"facets": []string{"brand"}}, map[string]string{"Origin": allowedOrigin})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
		Expect(r.body).To(MatchJSON(`{"error": "invalid search request: facets[0]: \"brand\" is not in the index's facetFields (the public policy allows it, but a field must be in both)"}`))
	})
})
