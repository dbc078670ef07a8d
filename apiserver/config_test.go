package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
)

func put(path, key, body string) (int, string) {
	rec := send(server, http.MethodPut, path, key, body, nil)
	return rec.Code, rec.Body.String()
}

func labIndex() *searchv1alpha1.SearchIndex {
	idx := &searchv1alpha1.SearchIndex{}
	Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "acme", Name: "lab"}, idx)).To(Succeed())
	return idx
}

var _ = Describe("PUT /config", Ordered, func() {
	const path = "/api/teams/acme/indexes/lab/config"

	It("writes query-time changes into the SearchIndex and reports them as applied", func() {
		code, body := put(path, keys["catalog"], `{
			"searchableFields": [{"path": "name", "weight": 5}, {"path": "description", "weight": 1}],
			"filterableFields": ["brand"], "facetFields": ["brand"], "sortableFields": ["price"],
			"customRanking": [{"field": "popularity", "order": "desc"}],
			"synonyms": [{"terms": ["sneaker", "shoe"]}], "countBrowserOrders": true}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).To(MatchJSON(`{
			"searchableFields": [{"path": "name", "weight": 5}, {"path": "description", "weight": 1}],
			"filterableFields": ["brand"], "facetFields": ["brand"], "sortableFields": ["price"],
			"ranking": ["sort", "words", "typo", "exact", "custom"],
			"customRanking": [{"field": "popularity", "order": "desc"}],
			"synonyms": [{"terms": ["sneaker", "shoe"]}],
			"typoTolerance": {"enabled": true, "minWordSizeFor1Typo": 4, "minWordSizeFor2Typos": 8, "onNumbers": false, "disableOnFields": [], "disableOnWords": []},
			"stopWords": {"enabled": true, "words": [], "replace": false},
			"language": "en", "countBrowserOrders": true,
			"applied": ["searchableFields", "filterableFields", "facetFields", "sortableFields", "countBrowserOrders"],
			"rebuilt": [], "rebuild": null}`))
		idx := labIndex()
		Expect(idx.Spec.Settings.FilterableFields).To(Equal([]searchv1alpha1.FieldPath{"brand"}))
		Expect(idx.Spec.Settings.SearchableFields[0].Weight).To(BeEquivalentTo(5))
		Expect(idx.ManagedFields).To(ContainElement(HaveField("Manager", apiserver.FieldManager)))
	})

	It("reports analysis changes as rebuilt, with a pending rebuild, and replaces the whole settings", func() {
		// Synonyms are applied by the query (issue 21): dropping them is no rebuild.
		code, body := put(path, keys["catalog"], `{"searchableFields": [{"path": "title"}], "language": "generic"}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).To(MatchJSON(`{
			"searchableFields": [{"path": "title", "weight": 1}], "filterableFields": [], "facetFields": [],
			"sortableFields": [], "ranking": ["sort", "words", "typo", "exact", "custom"],
			"customRanking": [], "synonyms": [],
			"typoTolerance": {"enabled": true, "minWordSizeFor1Typo": 4, "minWordSizeFor2Typos": 8, "onNumbers": false, "disableOnFields": [], "disableOnWords": []},
			"stopWords": {"enabled": true, "words": [], "replace": false},
			"language": "generic", "countBrowserOrders": false,
			"applied": ["filterableFields", "facetFields", "sortableFields", "customRanking", "synonyms", "countBrowserOrders"],
			"rebuilt": ["searchableFields", "language"],
			"rebuild": {"state": "Pending", "documentsDone": 0, "documentsTotal": 0, "startedAt": null, "finishedAt": null, "error": null}}`))
		Expect(labIndex().Spec.Settings.FacetFields).To(BeEmpty())
	})

	It("shows the stored settings in GET /config", func() {
		Eventually(func() string {
			return get(path, keys["catalog"]).Body.String()
		}).Should(ContainSubstring(`"language":"generic"`))
	})

	DescribeTable("answers 400 naming each bad field, and writes nothing",
		func(body string, messages ...string) {
			before := labIndex().Generation
			code, res := put(path, keys["catalog"], body)
			Expect(code).To(Equal(http.StatusBadRequest), res)
			for _, m := range messages {
				Expect(res).To(ContainSubstring(m))
			}
			Expect(labIndex().Generation).To(Equal(before))
		},
		Entry("weights and languages out of range (Kubernetes validation)",
			`{"searchableFields": [{"path": "name", "weight": 500}], "language": "xx"}`,
			"searchableFields[0].weight", "language"),
		Entry("a bad field path and a bad synonym",
			`{"facetFields": ["bad path!"], "synonyms": [{"terms": ["a, b", "c"]}]}`,
			"facetFields[0]", "synonyms[0].terms"),
		Entry("the reserved version field and a duplicate, with a Kubernetes rule too",
			`{"filterableFields": ["aisleVersion"], "sortableFields": ["price", "price"], "searchableFields": [{"path": "x", "weight": 101}]}`,
			`filterableFields[0]: \"aisleVersion\" is reserved`, `sortableFields[1]: \"price\" is listed twice`, "searchableFields[0].weight"),
		Entry("an unknown settings field", `{"searchable": []}`, `unknown field`),
		Entry("an unknown ranking criterion and one listed twice", `{"ranking": ["words", "popularity", "words"]}`,
			`ranking[1]: Unsupported value: \"popularity\"`, `ranking[2]: \"words\" is listed twice`),
		Entry("typo word sizes out of order, and a typo-free field that is not searchable",
			`{"searchableFields": [{"path": "name"}], "typoTolerance": {"minWordSizeFor1Typo": 5, "minWordSizeFor2Typos": 4, "disableOnFields": ["sku"]}}`,
			"typoTolerance.minWordSizeFor2Typos: must be at least minWordSizeFor1Typo (5)", `typoTolerance.disableOnFields[0]: \"sku\" is not a searchable field`),
		Entry("synonym entries without what their type needs",
			`{"synonyms": [{"type": "oneWay", "synonyms": ["mobile"]}, {"type": "altCorrection", "word": "adeedas", "corrections": ["adidas"], "typos": 3}, {"terms": ["tv"]}]}`,
			"synonyms[0].input: is required by synonym type oneWay", "synonyms[1].typos", "synonyms[2].terms"),
		Entry("an unknown synonym type and stop words listed twice", `{"synonyms": [{"type": "twoWay", "terms": ["a", "b"]}], "stopWords": {"words": ["the", "The"]}}`,
			"synonyms[0].type", `stopWords.words[1]: \"The\" is listed twice`),
		Entry("suggestions from no day, and excluded words listed twice or of two words",
			`{"suggestions": {"minDays": 0, "exclude": ["Sale", "sale", "red shoe"]}}`,
			"suggestions.minDays: must be from 1 to 90", `suggestions.exclude[1]: \"sale\" is listed twice`,
			`suggestions.exclude[2]: \"red shoe\" must be one word`),
		Entry("suggestions from more days than the search log keeps", `{"suggestions": {"minDays": 91}}`,
			"suggestions.minDays: must be from 1 to 90"),
	)
})

var _ = Describe("Public search policy endpoints", Ordered, func() {
	const path = "/api/teams/acme/indexes/lab/public-access/policy"

	// The policy may only allow what the settings list, which the PUT /config specs
	// replace: start from the index's own settings, whichever specs ran first.
	BeforeAll(func() {
		idx := labIndex()
		idx.Spec.Settings.FacetFields = catalogSettings.FacetFields
		idx.Spec.Settings.FilterableFields = catalogSettings.FilterableFields
		idx.Spec.Settings.SortableFields = catalogSettings.SortableFields
		Expect(k8sClient.Update(ctx, idx)).To(Succeed())
	})

	It("replaces the policy and answers the public access", func() {
		code, body := put(path, keys["catalog"], `{"policy": {"maxHits": 7, "allowedFacets": ["brand"],
			"forcedFilters": [{"field": "inStock", "values": ["true"]}]}}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).To(MatchJSON(`{"publicId": "pub-acme-lab", "allowedOrigins": ["http://allowed.test"],
			"policy": {"maxHits": 7, "retrievableFields": [], "forcedFilters": [{"field": "inStock", "values": ["true"]}],
				"allowedFacets": ["brand"], "allowedFilters": [], "allowedSorts": []}}`))
		code, body = put(path, keys["catalog"], `{"policy": {"allowedSorts": ["price"]}}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"policy":{"maxHits":20,"retrievableFields":[],"forcedFilters":[],"allowedFacets":[],"allowedFilters":[],"allowedSorts":["price"]}`))
	})

	It("refuses an invalid policy with 400 naming the field", func() {
		code, body := put(path, keys["catalog"], `{"policy": {"maxHits": 51, "forcedFilters": [{"field": "a"}]}}`)
		Expect(code).To(Equal(http.StatusBadRequest), body)
		Expect(body).To(And(ContainSubstring("invalid policy"), ContainSubstring("maxHits"), ContainSubstring("forcedFilters[0]")))
	})

	It("removes the policy", func() {
		rec := send(server, http.MethodDelete, path, keys["catalog"], "", nil)
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		Expect(rec.Body.String()).To(ContainSubstring(`"policy":{"maxHits":20,"retrievableFields":[],"forcedFilters":[],"allowedFacets":[],"allowedFilters":[],"allowedSorts":[]}`))
		Expect(labIndex().Spec.PublicAccess.Policy).To(BeNil())
	})
})

var _ = Describe("GET /fields", func() {
	It("lists the field paths records hold, nested ones included, with their types, never the version field", func() {
		rec := get("/api/teams/acme/indexes/catalog/fields", keys["catalog"])
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Body.String()).To(MatchJSON(`{"fields": [
			{"path": "brand", "type": "string", "records": 6},
			{"path": "createdAt", "type": "date", "records": 3},
			{"path": "description", "type": "string", "records": 6},
			{"path": "inStock", "type": "boolean", "records": 6},
			{"path": "name", "type": "string", "records": 6},
			{"path": "objectID", "type": "string", "records": 6},
			{"path": "popularity", "type": "number", "records": 6},
			{"path": "price", "type": "number", "records": 6},
			{"path": "specs.color", "type": "string", "records": 6}]}`))
	})

	It("answers an empty list for an index without records", func() {
		rec := get("/api/teams/acme/indexes/products/fields", keys["search"])
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Body.String()).To(MatchJSON(`{"fields": []}`))
	})
})
