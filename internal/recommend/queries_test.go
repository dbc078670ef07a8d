package recommend

import (
	"encoding/json"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

var shelf = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "inStock"},
	FacetFields:      []searchv1alpha1.FieldPath{"category", "brand", "size"},
	Recommendations:  &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"},
}

var shelfSchema = searchquery.Schema{
	"category": {Path: "category", Kind: searchquery.KindString, Type: "text", Keyword: "category.keyword"},
	"brand":    {Path: "brand", Kind: searchquery.KindString, Type: "text", Keyword: "brand.keyword"},
	"size":     {Path: "size", Kind: searchquery.KindNumber, Type: "long", Keyword: "size"},
}

func asJSON(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("The similar list's query", func() {
	It("asks for the product's words and facet values, within its similarWithin values, the product left out", func() {
		req := Request{Index: esnames.For("acme", "shelf"), Settings: shelf, ObjectID: "ph1", Params: Params{Limit: 5}}
		v := catalogView{alias: "acme-shelf", schema: shelfSchema, filters: []any{map[string]any{"term": map[string]any{"inStock": true}}},
			source: map[string]any{"excludes": []string{"aisleVersion"}}}
		rec := map[string]any{"objectID": "ph1", "category": []any{"phones", "sale"}, "brand": "Zeta", "name": "Zeta phone"}
		Expect(asJSON(similarQuery(planSimilar(req, v, rec)))).To(MatchJSON(`{
			"size": 5, "_source": {"excludes": ["aisleVersion"]}, "track_total_hits": false,
			"query": {"bool": {
				"filter": [{"terms": {"category.keyword": ["phones", "sale"]}}, {"term": {"inStock": true}}],
				"must_not": [{"ids": {"values": ["ph1"]}}],
				"should": [
					{"more_like_this": {"fields": ["name"], "like": [{"_index": "acme-shelf", "_id": "ph1"}],
						"min_term_freq": 1, "min_doc_freq": 2, "max_query_terms": 25}},
					{"terms": {"brand.keyword": ["Zeta"]}}],
				"minimum_should_match": 1}}}`))
	})
})

var embedded = func() searchv1alpha1.IndexSettings {
	s := *shelf.DeepCopy()
	s.Embedders = map[string]searchv1alpha1.Embedder{
		"text":  {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 3},
		"image": {Source: searchv1alpha1.EmbedderUserProvided, Dimensions: 2},
	}
	return s
}()

var _ = Describe("The similar list by vectors", func() {
	It("asks kNN for the vectors nearest the product's, pre-filtered by its similarWithin values and the filters, the product left out", func() {
		req := Request{Index: esnames.For("acme", "shelf"), Settings: embedded, ObjectID: "ph1", Params: Params{Limit: 5}}
		v := catalogView{alias: "acme-shelf", schema: shelfSchema, filters: []any{map[string]any{"term": map[string]any{"inStock": true}}},
			source: map[string]any{"excludes": []string{"aisleVersion", "_vectors"}}}
		rec := map[string]any{"objectID": "ph1", "category": "phones", "brand": "Zeta", "_vectors": map[string]any{"text": []any{0.5, 0.0, 1.0}}}
		Expect(asJSON(similarQuery(planSimilar(req, v, rec)))).To(MatchJSON(`{
			"size": 5, "_source": {"excludes": ["aisleVersion", "_vectors"]}, "track_total_hits": false,
			"knn": {"field": "_vectors.text", "query_vector": [0.5, 0, 1], "k": 5, "num_candidates": 100,
				"filter": [{"bool": {
					"filter": [{"terms": {"category.keyword": ["phones"]}}, {"term": {"inStock": true}}],
					"must_not": [{"ids": {"values": ["ph1"]}}]}}]}}`))
	})

	It("compares ten candidates per product listed on a long list", func() {
		req := Request{Settings: embedded, ObjectID: "ph1", Params: Params{Limit: 50}}
		rec := map[string]any{"_vectors": map[string]any{"text": []any{1.0, 0.0, 0.0}}}
		q := similarQuery(planSimilar(req, catalogView{schema: shelfSchema}, rec))
		Expect(q["knn"]).To(HaveKeyWithValue("num_candidates", 500))
		Expect(q["knn"].(obj)["filter"]).To(Equal([]any{obj{"bool": obj{"must_not": []any{obj{"ids": obj{"values": []string{"ph1"}}}}}}}))
	})

	DescribeTable("takes the first embedder, by name, whose vector the product holds, else falls back to its words",
		func(settings searchv1alpha1.IndexSettings, vectors any, field string) {
			rec := map[string]any{"objectID": "ph1"}
			if vectors != nil {
				rec["_vectors"] = vectors
			}
			got := vectorOf(settings, rec)
			if field == "" {
				Expect(got).To(BeNil())
				Expect(similarQuery(similarPlan{id: "ph1", vector: got})).To(HaveKey("query"), "more_like_this")
				return
			}
			Expect(got).NotTo(BeNil())
			Expect(got.field).To(Equal(field))
		},
		Entry("both held: image before text", embedded, map[string]any{"text": []any{1.0, 0.0, 0.0}, "image": []any{0.0, 1.0}}, "_vectors.image"),
		Entry("only text held", embedded, map[string]any{"text": []any{1.0, 0.0, 0.0}}, "_vectors.text"),
		Entry("image of the wrong dimensions, text held", embedded,
			map[string]any{"text": []any{1.0, 0.0, 0.0}, "image": []any{1.0, 0.0, 0.0}}, "_vectors.text"),
		Entry("no vector yet (an openAI embedder has not embedded it)", embedded, nil, ""),
		Entry("a vector of zeros, which has no direction", embedded, map[string]any{"text": []any{0.0, 0.0, 0.0}}, ""),
		Entry("a vector holding something other than numbers", embedded, map[string]any{"text": []any{1.0, "x", 0.0}}, ""),
		Entry("an index without embedders, whatever the record holds", shelf, map[string]any{"text": []any{1.0, 0.0, 0.0}}, ""),
		Entry("vectors that are not an object", embedded, []any{1.0, 0.0, 0.0}, ""),
	)
})

var _ = Describe("The goes-with list", func() {
	It("asks significant_terms for the products of the product's counted orders, by the percentage heuristic", func() {
		now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		q := asJSON(goesWithQuery("ph1", 3, 60, now))
		Expect(q).To(ContainSubstring(`"significant_terms":{"exclude":["ph1"],"field":"products","min_doc_count":3,"percentage":{},"size":60}`))
		Expect(q).To(ContainSubstring(`{"term":{"products":"ph1"}}`))
		Expect(q).To(ContainSubstring(`{"term":{"counts":true}}`))
	})

	It("ranks by lift, read from the aggregation's own counts", func() {
		raw := []byte(`{"aggregations": {"goesWith": {"doc_count": 10, "bg_count": 1000, "buckets": [
			{"key": "case", "doc_count": 5, "bg_count": 10, "score": 0.5},
			{"key": "tv", "doc_count": 4, "bg_count": 400, "score": 0.01}]}}}`)
		ranked, err := rankGoesWith(raw)
		Expect(err).NotTo(HaveOccurred())
		Expect(ranked).To(Equal([]scored{{"case", 50}, {"tv", 1}}))
	})

	It("groups by similarWithin, or else the first facet field", func() {
		Expect(CategoryField(relevance.RecommendationsOf(shelf), []string{"brand"})).To(Equal("category"))
		Expect(CategoryField(relevance.Recommendation{}, []string{"brand", "size"})).To(Equal("brand"))
		Expect(CategoryField(relevance.Recommendation{}, nil)).To(BeEmpty())
	})

	It("takes the categories of most orders, ties by value", func() {
		w := map[string]weighted{`"tvs"`: {"tvs", 3}, `"cases"`: {"cases", 9}, `"chargers"`: {"chargers", 3}, `"hats"`: {"hats", 1}}
		Expect(topCategories(w, 3)).To(Equal([]any{"cases", "chargers", "tvs"}))
	})
})

var _ = Describe("Trending", func() {
	w := relevance.RecommendationsOf(searchv1alpha1.IndexSettings{}).Weights

	It("scores the rise of the daily weighted events, smoothed", func() {
		Expect(trendScore(70, 280)).To(BeNumerically("~", 1), "as many events a day as before")
		Expect(trendScore(70, 0)).To(BeNumerically("~", 11))
		Expect(trendScore(0, 280)).To(BeNumerically("~", 1.0/11))
	})

	It("ranks the products with enough recent events by their rise", func() {
		recent := typeCounts{"view": {"steady": 20, "rising": 10, "stray": 1}, "click": {}, "addToCart": {"rising": 1}, "purchase": {"stray": 1}}
		past := typeCounts{"view": {"steady": 80}, "click": {}, "addToCart": {}, "purchase": {}}
		cands := recent.candidates(w)
		Expect(cands).To(Equal([]string{"rising", "steady"}), "the stray product has 2 events, under the minimum of 3")
		Expect(rankTrend(recent, past, cands, w)).To(Equal([]scored{{"rising", trendScore(15, 0)}, {"steady", trendScore(20, 80)}}))
	})

	It("counts only the types that weigh something", func() {
		zero := w
		zero.View = 0
		recent := typeCounts{"view": {"p": 50}, "click": {"p": 1}, "addToCart": {}, "purchase": {}}
		Expect(recent.candidates(zero)).To(BeEmpty())
	})

	It("counts each type's events per product over a window, cancelled purchases left out", func() {
		from := time.UnixMilli(1000)
		q := asJSON(trendingQuery(from, time.UnixMilli(2000), []string{"a"}, 1))
		Expect(q).To(ContainSubstring(`"purchase":{"aggs":{"products":{"terms":{"field":"items.objectID","include":["a"],"size":1}}},"filter":{"term":{"type":"purchase"}}}`))
		Expect(q).To(ContainSubstring(`"view":{"aggs":{"products":{"terms":{"field":"objectID","include":["a"],"size":1}}}`))
		Expect(q).To(ContainSubstring(`"range":{"timestamp":{"gte":1000,"lt":2000}}`))
		Expect(q).To(ContainSubstring(`"must_not":[{"term":{"cancelled":true}}]`))
	})
})
