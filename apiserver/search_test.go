package apiserver_test

import (
	"encoding/json"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/esnames"
)

// searchResult is the part of a search response the specs read.
type searchResult struct {
	Hits []struct {
		ObjectID   string         `json:"objectID"`
		Record     map[string]any `json:"record"`
		Highlights map[string]any `json:"highlights"`
	} `json:"hits"`
	Total  int64                       `json:"total"`
	Offset int                         `json:"offset"`
	Limit  int                         `json:"limit"`
	Facets map[string][]map[string]any `json:"facets"`
	Took   *int64                      `json:"took"`
}

func (r searchResult) ids() []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.ObjectID)
	}
	return out
}

func searchCatalog(body string) searchResult {
	rec := post("/api/teams/acme/indexes/catalog/search", keys["catalog"], body)
	Expect(rec.Code).To(Equal(http.StatusOK), "body: %s", rec.Body.String())
	var res searchResult
	Expect(json.Unmarshal(rec.Body.Bytes(), &res)).To(Succeed())
	return res
}

var _ = Describe("POST /search", func() {
	It("returns every record for an empty query, in custom ranking order, with the total and the time taken", func() {
		res := searchCatalog(`{}`)
		Expect(res.ids()).To(Equal([]string{"p2", "p6", "p3", "p5", "p1", "p4"}))
		Expect(res.Total).To(BeEquivalentTo(6))
		Expect(res.Took).NotTo(BeNil())
		Expect(res.Limit).To(Equal(20))
	})

	It("never returns the reserved version field", func() {
		for _, h := range searchCatalog(`{"q": "shoe"}`).Hits {
			Expect(h.Record).NotTo(HaveKey("aisleVersion"))
			Expect(h.Record).To(HaveKeyWithValue("objectID", h.ObjectID))
		}
	})

	It("matches the query in the searchable fields, weighted, and highlights the matched words", func() {
		res := searchCatalog(`{"q": "shoe"}`)
		Expect(res.ids()).To(ConsistOf("p1", "p2", "p4"))
		Expect(res.Hits[0].Highlights).To(HaveKey("name"))
		Expect(res.Hits[0].Highlights["name"]).To(ContainSubstring("<em>shoe</em>"))
	})

	It("ranks a match in a heavier field first", func() {
		res := searchCatalog(`{"q": "road"}`)
		Expect(res.ids()).To(Equal([]string{"p1"}))
		Expect(res.Hits[0].Highlights).To(Equal(map[string]any{"description": "Light shoe for <em>road</em> running"}))
	})

	DescribeTable("finds records despite typos, word prefixes, accents and synonyms",
		func(q string, ids ...string) {
			Expect(searchCatalog(`{"q": "` + q + `"}`).ids()).To(ContainElements(ids))
		},
		Entry("a typo", "grop", "p4"),
		Entry("the prefix of the last word (search as you type)", "telev", "p3"),
		Entry("without accents", "creme brulee", "p5"),
		Entry("a synonym", "sneaker", "p1", "p2", "p4"),
	)

	It("does not forgive typos when typo tolerance is off", func() {
		Expect(searchCatalog(`{"q": "grop", "typoTolerance": false}`).ids()).To(BeEmpty())
	})

	DescribeTable("filters on filterable fields",
		func(filters string, ids ...string) {
			Expect(searchCatalog(`{"filters": ` + filters + `}`).ids()).To(ConsistOf(ids))
		},
		Entry("equality on a string", `{"field": "brand", "eq": "Acme"}`, "p1", "p2", "p6"),
		Entry("equality on a nested field", `{"field": "specs.color", "eq": "red"}`, "p1", "p6"),
		Entry("a set", `{"field": "brand", "in": ["Globo", "Peak"]}`, "p3", "p4"),
		Entry("a numeric range", `{"field": "price", "range": {"gte": 50, "lt": 100}}`, "p1", "p2"),
		Entry("a date range", `{"field": "createdAt", "range": {"gte": "2024-02-01"}}`, "p2", "p3"),
		Entry("a boolean", `{"field": "inStock", "eq": false}`, "p2"),
		Entry("and, or, not", `{"and": [{"field": "brand", "eq": "Acme"}, {"or": [{"field": "price", "range": {"lt": 10}}, {"not": {"field": "inStock", "eq": true}}]}]}`, "p2", "p6"),
	)

	It("counts facet values among the matching records, nested paths included", func() {
		res := searchCatalog(`{"q": "shoe", "facets": ["brand", "specs.color", "inStock"]}`)
		Expect(res.Facets["brand"]).To(ConsistOf(
			map[string]any{"value": "Acme", "count": 2.0}, map[string]any{"value": "Peak", "count": 1.0}))
		Expect(res.Facets["specs.color"]).To(HaveLen(3))
		Expect(res.Facets["inStock"]).To(ConsistOf(
			map[string]any{"value": true, "count": 2.0}, map[string]any{"value": false, "count": 1.0}))
	})

	It("sorts on sortable fields and pages with offset and limit", func() {
		Expect(searchCatalog(`{"sort": [{"field": "price"}]}`).ids()).To(Equal([]string{"p6", "p5", "p1", "p2", "p4", "p3"}))
		page := searchCatalog(`{"sort": [{"field": "price", "order": "desc"}], "offset": 2, "limit": 2}`)
		Expect(page.ids()).To(Equal([]string{"p2", "p1"}))
		Expect(page.Total).To(BeEquivalentTo(6))
		Expect(page.Offset).To(Equal(2))
	})

	It("returns only the requested fields", func() {
		res := searchCatalog(`{"q": "torch", "fields": ["name"]}`)
		Expect(res.Hits[0].Record).To(Equal(map[string]any{"objectID": "p5", "name": "Crème brûlée torch"}))
	})

	DescribeTable("answers 400 naming the field for what the settings do not allow",
		func(body, message string) {
			rec := post("/api/teams/acme/indexes/catalog/search", keys["catalog"], body)
			Expect(rec.Code).To(Equal(http.StatusBadRequest))
			Expect(rec.Body.String()).To(ContainSubstring(message))
		},
		Entry("a filter on a field that is not configured", `{"filters": {"field": "popularity", "eq": 1}}`, `\"popularity\" is not a filterable field`),
		Entry("a facet on a field that is not configured", `{"facets": ["price"]}`, `\"price\" is not a facet field`),
		Entry("a sort on a field that is not configured", `{"sort": [{"field": "brand"}]}`, `\"brand\" is not a sortable field`),
		Entry("more than 100 hits", `{"limit": 101}`, "limit: must be between 1 and 100"),
		Entry("an unknown request field", `{"query": "x"}`, `unknown field`),
		Entry("an unknown matching strategy", `{"q": "x", "matchingStrategy": "most"}`, "matchingStrategy: must be frequency, all, last or any"),
		Entry("a snippet of 0 words", `{"snippets": [{"field": "name", "words": 0}]}`, "snippets[0].words: must be between 1 and 100"),
		Entry("a snippet of 101 words", `{"snippets": [{"field": "name", "words": 101}]}`, "snippets[0].words: must be between 1 and 100"),
		Entry("a snippet of a field that is not searchable", `{"snippets": [{"field": "brand"}]}`, `snippets[0].field: \"brand\" is not a searchable field`),
	)

	It("answers 402 once the workspace has used its monthly searches, on every replica", func() {
		for i := 0; i < 3; i++ {
			Expect(post("/api/teams/umbrella/indexes/products/search", keys["umbrella"], `{}`).Code).To(Equal(http.StatusOK))
		}
		rec := post("/api/teams/umbrella/indexes/products/search", keys["umbrella"], `{}`)
		Expect(rec.Code).To(Equal(http.StatusPaymentRequired))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("plan limit reached: the workspace has used its monthly searches")))

		By("a second replica reading the count from the shared counter")
		Eventually(func() string {
			res, err := esClient.Get(esnames.Usage(esnames.DefaultPrefix), "umbrella."+time.Now().UTC().Format("2006-01")).Do(ctx)
			if err != nil || !res.Found {
				return ""
			}
			return string(res.Source_)
		}).Should(ContainSubstring(`"searches":3`))
		other := newServer(apiserver.PublicLimits{})
		rec = send(other, http.MethodPost, "/api/teams/umbrella/indexes/products/search", keys["umbrella"], `{}`, nil)
		Expect(rec.Code).To(Equal(http.StatusPaymentRequired))
	})
})
