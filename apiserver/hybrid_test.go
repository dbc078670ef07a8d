package apiserver_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// hybridSettings: one searchable field, nothing ranked after the score (BM25 and the
// similarity break the ties), a three-dimension embedder.
var hybridSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand"},
	Embedders:        map[string]searchv1alpha1.Embedder{"use": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3}},
}

var _ = Describe("Hybrid search with a userProvided embedder (issue 38)", Ordered, func() {
	var tie, meaning catalogIndex
	BeforeAll(func() {
		tie = rankedIndex("hybrid-tie", hybridSettings,
			`{"objectID": "a", "name": "red shoe", "_vectors": {"use": [1, 0, 0]}}`,
			`{"objectID": "b", "name": "red shoe", "_vectors": {"use": [0, 1, 0]}}`)
		meaning = rankedIndex("hybrid-meaning", hybridSettings,
			`{"objectID": "shoe", "name": "red shoe", "brand": "acme", "_vectors": {"use": [0, 1, 0]}}`,
			`{"objectID": "boot", "name": "leather boot", "brand": "acme", "_vectors": {"use": [1, 0.1, 0]}}`,
			`{"objectID": "hat", "name": "wool hat", "brand": "other", "_vectors": {"use": [1, 0, 0]}}`)
	})

	It("keeps a browser's search by meaning within the public policy's forced filters", func() {
		origin := "https://hybrid.test"
		rankedIndexWith("hybrid-public", hybridSettings, []searchv1alpha1.Origin{searchv1alpha1.Origin(origin)},
			&searchv1alpha1.PublicSearchPolicy{ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "brand", Values: []string{"acme"}}}},
			`{"objectID": "shoe", "name": "red shoe", "brand": "acme", "_vectors": {"use": [0, 1, 0]}}`,
			`{"objectID": "boot", "name": "leather boot", "brand": "acme", "_vectors": {"use": [1, 0.1, 0]}}`,
			`{"objectID": "hat", "name": "wool hat", "brand": "other", "_vectors": {"use": [1, 0, 0]}}`)
		for body, want := range map[string][]string{
			`{"q": "shoe", "hybrid": {"embedder": "use"}, "vector": [1, 0, 0]}`:                     {"shoe", "boot"},
			`{"q": "shoe", "hybrid": {"embedder": "use", "semanticRatio": 1}, "vector": [1, 0, 0]}`: {"boot", "shoe"},
		} {
			r := callWith(0, http.MethodPost, "/api/public/indexes/pub-shop-hybrid-public/search", "", []byte(body),
				map[string]string{"Origin": origin, "User-Agent": "hybrid-spec"})
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var res rankedResult
			Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			Expect(res.ids()).To(Equal(want), body)
		}
	})

	It("breaks a tie of the words by similarity", func() {
		Expect(searchIn(tie, `{"q": "shoe", "hybrid": {"embedder": "use"}, "vector": [0, 1, 0]}`).ids()).To(Equal([]string{"b", "a"}))
		Expect(searchIn(tie, `{"q": "shoe", "hybrid": {"embedder": "use"}, "vector": [1, 0, 0]}`).ids()).To(Equal([]string{"a", "b"}))
	})

	It("finds records by meaning alone, after every record matching a word, within the filters", func() {
		Expect(searchIn(meaning, `{"q": "shoe"}`).ids()).To(Equal([]string{"shoe"}))
		res := searchIn(meaning, `{"q": "shoe", "hybrid": {"embedder": "use", "semanticRatio": 0.5}, "vector": [1, 0, 0]}`)
		Expect(res.ids()).To(Equal([]string{"shoe", "hat", "boot"}))
		filtered := searchIn(meaning, `{"q": "shoe", "hybrid": {"embedder": "use"}, "vector": [1, 0, 0], "filters": {"field": "brand", "eq": "acme"}}`)
		Expect(filtered.ids()).To(Equal([]string{"shoe", "boot"}))
	})

	It("orders by similarity alone with a ratio of 1", func() {
		Expect(searchIn(meaning, `{"q": "shoe", "hybrid": {"embedder": "use", "semanticRatio": 1}, "vector": [1, 0, 0]}`).ids()).
			To(Equal([]string{"hat", "boot", "shoe"}))
	})

	It("keeps the vectors out of the hits and returns them as written by GET /records/{id}", func() {
		r := call(0, http.MethodPost, meaning.base+"/search", meaning.searchKey, []byte(`{"q": "boot"}`))
		Expect(r.status).To(Equal(http.StatusOK))
		Expect(string(r.body)).NotTo(ContainSubstring("_vectors"))
		Expect(recordOf(meaning, "boot")["_vectors"]).To(Equal(map[string]any{"use": []any{1.0, 0.1, 0.0}}))
	})

	It("explains each hit's similarity to the query's vector, the vectors kept out of the record", func() {
		r := call(0, http.MethodPost, meaning.base+"/search", meaning.searchKey,
			[]byte(`{"q": "shoe", "explain": true, "hybrid": {"embedder": "use"}, "vector": [1, 0, 0]}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Expect(string(r.body)).NotTo(ContainSubstring("_vectors"))
		var res struct {
			Hits []struct {
				ObjectID string `json:"objectID"`
				Ranking  struct {
					Words              int      `json:"words"`
					SemanticSimilarity *float64 `json:"semanticSimilarity"`
				} `json:"ranking"`
			} `json:"hits"`
		}
		Expect(json.Unmarshal(r.body, &res)).To(Succeed())
		Expect(res.Hits).To(HaveLen(3))
		Expect(res.Hits[0].ObjectID).To(Equal("shoe"))
		Expect(*res.Hits[0].Ranking.SemanticSimilarity).To(BeNumerically("~", 0.5, 1e-9), "orthogonal: (1+0)/2")
		Expect(res.Hits[1].ObjectID).To(Equal("hat"))
		Expect(*res.Hits[1].Ranking.SemanticSimilarity).To(BeNumerically("~", 1, 1e-9))
		Expect(res.Hits[1].Ranking.Words).To(Equal(0), "found by meaning alone")
	})

	DescribeTable("refuses a record whose vector its index cannot take, writing nothing",
		func(record, want string) {
			r := call(0, http.MethodPost, tie.base+"/records", tie.writeKey, []byte(`{"records": [`+record+`]}`))
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(want))
			Expect(recordOf(tie, "c")).To(BeNil(), "nothing written")
		},
		Entry("the wrong dimensions", `{"objectID": "c", "name": "x", "_vectors": {"use": [1, 0]}}`,
			`records[0]: field \"_vectors.use\" (embedder \"use\"): must be 3 numbers (the embedder's dimensions), got 2`),
		Entry("an unknown embedder", `{"objectID": "c", "name": "x", "_vectors": {"bert": [1, 0, 0]}}`,
			`records[0]: field \"_vectors.bert\": the index has no embedder \"bert\" (embedders: use)`),
	)

	DescribeTable("refuses a search the embedders cannot take",
		func(body, want string) {
			r := call(0, http.MethodPost, tie.base+"/search", tie.searchKey, []byte(body))
			Expect(r.status).To(Equal(http.StatusBadRequest), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(want))
		},
		Entry("a ratio out of range", `{"q": "shoe", "hybrid": {"embedder": "use", "semanticRatio": 2}, "vector": [1, 0, 0]}`,
			`hybrid.semanticRatio: must be between 0 and 1, got 2`),
		Entry("the wrong dimensions", `{"q": "shoe", "hybrid": {"embedder": "use"}, "vector": [1, 0]}`,
			`vector: must be 3 numbers (embedder use's dimensions), got 2`),
		Entry("an unknown embedder", `{"q": "shoe", "hybrid": {"embedder": "bert"}, "vector": [1, 0, 0]}`,
			`hybrid.embedder: \"bert\" is not an embedder of the index (embedders: use)`),
	)
})

// recordOf is GET /records/{id}'s record, nil when there is none.
func recordOf(ci catalogIndex, id string) map[string]any {
	got := call(0, http.MethodGet, ci.base+"/records/"+id, ci.writeKey, nil)
	if got.status == http.StatusNotFound {
		return nil
	}
	Expect(got.status).To(Equal(http.StatusOK), string(got.body))
	var rec struct {
		Record map[string]any `json:"record"`
	}
	Expect(json.Unmarshal(got.body, &rec)).To(Succeed())
	return rec.Record
}
