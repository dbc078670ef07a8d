package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/url"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/recommend"
)

// similarVectorSettings: the products' words are all alike, so that only their vectors
// can tell which is more similar.
var similarVectorSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand"},
	FacetFields:      []searchv1alpha1.FieldPath{"category"},
	Recommendations:  &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"},
	Embedders:        map[string]searchv1alpha1.Embedder{"use": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3}},
}

var _ = Describe("The similar list by vectors (issue 38)", Ordered, func() {
	var ci catalogIndex

	// similar lists the IDs of a product's similar list and checks every hit's reason.
	similar := func(path string) []string {
		GinkgoHelper()
		r := call(0, http.MethodGet, ci.base+"/lists/similar/"+path, ci.searchKey, nil)
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Expect(string(r.body)).NotTo(ContainSubstring("_vectors"), "vectors are for the search, not the page")
		var l recommend.List
		Expect(json.Unmarshal(r.body, &l)).To(Succeed())
		ids := []string{}
		for _, h := range l.Hits {
			Expect(h.Reason).To(Equal(recommend.ReasonContent))
			ids = append(ids, h.ObjectID)
		}
		return ids
	}

	BeforeAll(func() {
		ci = rankedIndex("similar-vectors", similarVectorSettings,
			`{"objectID": "east", "name": "red shoe", "brand": "acme", "category": "shoes", "_vectors": {"use": [1, 0, 0]}}`,
			`{"objectID": "north", "name": "red shoe", "brand": "acme", "category": "shoes", "_vectors": {"use": [0, 1, 0]}}`,
			`{"objectID": "near-east", "name": "red shoe", "brand": "other", "category": "shoes", "_vectors": {"use": [0.9, 0.1, 0]}}`,
			`{"objectID": "hat", "name": "red shoe", "brand": "acme", "category": "hats", "_vectors": {"use": [1, 0, 0]}}`,
			`{"objectID": "bare", "name": "red shoe", "brand": "acme", "category": "shoes"}`)
	})

	It("ranks the products whose vectors are nearest the product's first, where the words tie", func() {
		Expect(similar("east")).To(Equal([]string{"near-east", "north"}))
		Expect(similar("north")).To(Equal([]string{"near-east", "east"}))
		Expect(similar("near-east")).To(Equal([]string{"east", "north"}))
	})

	It("stays within the product's similarWithin value and the request's filters, never listing the product", func() {
		Expect(similar("east?filters=" + url.QueryEscape(`{"field": "brand", "eq": "acme"}`))).To(Equal([]string{"north"}))
		Expect(similar("hat")).To(BeEmpty(), "the only hat; the shoes of the same vector are another category")
		Expect(similar("east?limit=1")).To(Equal([]string{"near-east"}))
	})

	It("lists a product without a vector by its words and facet values, as without an embedder", func() {
		Expect(similar("bare")).To(ConsistOf("east", "north", "near-east"))
	})
})
