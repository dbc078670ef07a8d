package searchquery_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Search by meaning", func() {
	withEmbedder := settings
	withEmbedder.Embedders = map[string]searchv1alpha1.Embedder{"use": {Source: "userProvided", Dimensions: 3}}
	rules := searchquery.KeyedAccess(withEmbedder)
	// Without custom ranking nothing sorts after the score: BM25 breaks the ties.
	tied := withEmbedder
	tied.CustomRanking = nil

	DescribeTable("refuses hybrid and vector that the index's embedders cannot take, naming the place",
		func(body, want string) {
			_, err := searchquery.Build(decode(body), rules, schema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			Expect(err.Error()).To(ContainSubstring(want))
		},
		Entry("an unknown embedder", `{"q": "tv", "hybrid": {"embedder": "bert"}, "vector": [1, 0, 0]}`,
			`hybrid.embedder: "bert" is not an embedder of the index (embedders: use)`),
		Entry("a ratio above 1", `{"q": "tv", "hybrid": {"embedder": "use", "semanticRatio": 1.5}, "vector": [1, 0, 0]}`,
			`hybrid.semanticRatio: must be between 0 and 1, got 1.5`),
		Entry("a negative ratio", `{"q": "tv", "hybrid": {"embedder": "use", "semanticRatio": -0.1}, "vector": [1, 0, 0]}`,
			`hybrid.semanticRatio: must be between 0 and 1, got -0.1`),
		Entry("no vector", `{"q": "tv", "hybrid": {"embedder": "use"}}`,
			`vector: is required with hybrid: a userProvided embedder computes no query vector`),
		Entry("a vector of the wrong dimensions", `{"q": "tv", "hybrid": {"embedder": "use"}, "vector": [1, 0]}`,
			`vector: must be 3 numbers (embedder use's dimensions), got 2`),
		Entry("a zero vector", `{"q": "tv", "hybrid": {"embedder": "use"}, "vector": [0, 0, 0]}`,
			`vector: must not be all zeros (a cosine needs a direction)`),
		Entry("a vector out of a float's range", `{"q": "tv", "hybrid": {"embedder": "use"}, "vector": [1, 1e39, 0]}`,
			`vector: holds a number out of range for a float`),
		Entry("a vector without hybrid", `{"q": "tv", "vector": [1, 0, 0]}`, `vector: needs hybrid, naming the vector's embedder`),
	)

	It("leaves the body of a words-only search as it is, but for the vectors kept out of the hits", func() {
		plain := build(`{"q": "red tv"}`, searchquery.KeyedAccess(settings))
		words := build(`{"q": "red tv"}`, rules)
		Expect(words["_source"]).To(Equal(map[string]any{"excludes": []any{"aisleVersion", "_vectors", "_aisle_embed"}}))
		delete(words, "_source")
		delete(plain, "_source")
		Expect(words).To(Equal(plain))
	})

	It("matches the words or the kNN top k, the similarity scaled into the fraction beside BM25", func() {
		m := build(`{"q": "red tv", "hybrid": {"embedder": "use", "semanticRatio": 0.25}, "vector": [1, 0, 0], "filters": {"field": "brand", "eq": "acme"}}`, searchquery.KeyedAccess(tied))
		must := m["query"].(map[string]any)["bool"].(map[string]any)["must"].([]any)
		either := must[0].(map[string]any)["bool"].(map[string]any)["must"].([]any)[0].(map[string]any)["bool"].(map[string]any)["should"].([]any)
		Expect(either).To(HaveLen(2))
		knn := either[1].(map[string]any)["knn"].(map[string]any)
		Expect(knn["field"]).To(Equal("_vectors.use"))
		Expect(knn["query_vector"]).To(Equal([]any{1.0, 0.0, 0.0}))
		Expect(knn["boost"]).To(BeNumerically("~", 0.45*0.25, 1e-9))
		Expect(knn["filter"]).To(Equal(filtersOf(m)), "the kNN search is pre-filtered as the search is")

		words := build(`{"q": "red tv"}`, searchquery.KeyedAccess(tied))
		Expect(tieBoost(m)).To(BeNumerically("~", tieBoost(words)*0.75, 1e-12))
	})

	DescribeTable("searches by meaning only with a ratio of 1 or no words",
		func(body string) {
			m := build(body, rules)
			must := m["query"].(map[string]any)["bool"].(map[string]any)["must"].([]any)
			inner := must[0].(map[string]any)["bool"].(map[string]any)["must"].([]any)
			Expect(inner).To(HaveLen(1))
			Expect(inner[0].(map[string]any)["knn"].(map[string]any)["boost"]).To(BeNumerically("~", 0.45, 1e-9))
		},
		Entry("ratio 1", `{"q": "red tv", "hybrid": {"embedder": "use", "semanticRatio": 1}, "vector": [0, 1, 0]}`),
		Entry("no words", `{"q": "", "hybrid": {"embedder": "use"}, "vector": [0, 1, 0]}`),
	)
})

// tieBoost is the boost of the BM25 tie-breaker (the multi_match clause among the
// text query's shoulds).
func tieBoost(m map[string]any) float64 {
	raw, _ := json.Marshal(m["query"])
	var q struct {
		Bool struct {
			Must []struct {
				Bool struct {
					Should []map[string]any `json:"should"`
				} `json:"bool"`
			} `json:"must"`
		} `json:"bool"`
	}
	Expect(json.Unmarshal(raw, &q)).To(Succeed())
	for _, c := range q.Bool.Must[0].Bool.Should {
		if mm, ok := c["multi_match"].(map[string]any); ok && mm["type"] == nil {
			return mm["boost"].(float64)
		}
	}
	Fail("no tie-breaker")
	return 0
}
