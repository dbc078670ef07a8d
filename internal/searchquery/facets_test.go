package searchquery_test

import (
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// shopSettings facet brand, color and price, and group variants by groupId.
var shopSettings = searchv1alpha1.IndexSettings{
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "price", "groupId"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand", "specs.color", "price", "inStock"},
	Distinct:         &searchv1alpha1.DistinctSetting{Field: "groupId", Limit: 1},
}

var shopSchema = func() searchquery.Schema {
	s := searchquery.Schema{"groupId": {Path: "groupId", Kind: searchquery.KindString, Type: "text", Keyword: "groupId.keyword"}}
	for path, f := range schema {
		s[path] = f
	}
	return s
}()

func buildShop(body string, r searchquery.Access) map[string]any {
	plan, err := searchquery.Build(decode(body), r, shopSchema)
	Expect(err).NotTo(HaveOccurred())
	return fromJSON(plan.Bodies.Search)
}

func fromJSON(raw []byte) map[string]any {
	var m map[string]any
	Expect(json.Unmarshal(raw, &m)).To(Succeed())
	return m
}

// repeatJSON is n copies of a JSON value, comma-separated.
func repeatJSON(v string, n int) string {
	return strings.TrimSuffix(strings.Repeat(v+",", n), ",")
}

var _ = Describe("Disjunctive facets", func() {
	keyed := searchquery.KeyedAccess(shopSettings)
	public := searchquery.PublicAccess(shopSettings, searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand"}})

	It("narrow the hits to every selection with post_filter, leaving the query and the aggregations to the others", func() {
		m := buildShop(`{"distinct": false, "facets": ["brand"], "facetFilters": {"brand": ["acme", "globex"], "specs.color": ["red"]},
			"filters": {"field": "price", "range": {"lt": 100}}}`, keyed)
		Expect(toJSON(m["post_filter"])).To(MatchJSON(`{"bool": {"filter": [
			{"terms": {"brand.keyword": ["acme", "globex"]}}, {"term": {"specs.color.keyword": "red"}}]}}`))
		Expect(toJSON(filtersOf(m))).To(MatchJSON(`[{"range": {"price": {"lt": 100}}}]`))
	})

	It("count a facet named in facetFilters under the other facets' selections only, and the others under every selection", func() {
		m := buildShop(`{"distinct": false, "facets": ["brand", "specs.color", "inStock"], "maxValuesPerFacet": 5,
			"facetFilters": {"brand": ["acme"], "specs.color": ["red", "blue"]}}`, keyed)
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{
			"f0": {"filter": {"terms": {"specs.color.keyword": ["red", "blue"]}}, "aggs": {"v": {"terms": {"field": "brand.keyword", "size": 5}}}},
			"f1": {"filter": {"term": {"brand.keyword": "acme"}}, "aggs": {"v": {"terms": {"field": "specs.color.keyword", "size": 5}}}},
			"f2": {"filter": {"bool": {"filter": [{"term": {"brand.keyword": "acme"}}, {"terms": {"specs.color.keyword": ["red", "blue"]}}]}},
				"aggs": {"v": {"terms": {"field": "inStock", "size": 5}}}}}`))
	})

	It("count a facet as before when it is the only one selected", func() {
		m := buildShop(`{"distinct": false, "facets": ["brand"], "facetFilters": {"brand": ["acme"]}}`, keyed)
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{"f0": {"terms": {"field": "brand.keyword", "size": 10}}}`))
		Expect(toJSON(m["post_filter"])).To(MatchJSON(`{"term": {"brand.keyword": "acme"}}`))
	})

	It("add the stats of numeric facets over the records their counts are taken from", func() {
		m := buildShop(`{"distinct": false, "facets": ["price", "brand"], "facetFilters": {"brand": ["acme"], "price": [10]}}`, keyed)
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{
			"f0": {"filter": {"term": {"brand.keyword": "acme"}}, "aggs": {"v": {"terms": {"field": "price", "size": 10}},
				"s": {"stats": {"field": "price"}}}},
			"f1": {"filter": {"term": {"price": 10}}, "aggs": {"v": {"terms": {"field": "brand.keyword", "size": 10}}}}}`))
		m = buildShop(`{"distinct": false, "facets": ["price"]}`, keyed)
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{"f0": {"terms": {"field": "price", "size": 10}}, "s0": {"stats": {"field": "price"}}}`))
	})

	DescribeTable("refuse selections a search may not make, naming the place",
		func(body string, r searchquery.Access, message string) {
			_, err := searchquery.Build(decode(body), r, shopSchema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			Expect(err).To(MatchError(ContainSubstring(message)))
		},
		Entry("a field that is not a facet field", `{"facetFilters": {"groupId": ["g"]}}`, keyed,
			`facetFilters.groupId: "groupId" is not a facet field (facet fields: brand, specs.color, price, inStock)`),
		Entry("a facet the policy does not allow", `{"facetFilters": {"price": [1]}}`, public,
			`facetFilters.price: "price" is not allowed in public facets (allowed: brand)`),
		Entry("no value", `{"facetFilters": {"brand": []}}`, keyed, "facetFilters.brand: needs 1 to 100 values"),
		Entry("an object as a value", `{"facetFilters": {"brand": [{}]}}`, keyed, "facetFilters.brand[0]: must be a string, number or boolean"),
		Entry("a word for a number field", `{"facetFilters": {"price": [3, "cheap"]}}`, keyed, `facetFilters.price[1]: must be a number`),
		Entry("more than 100 values", `{"facetFilters": {"brand": [`+repeatJSON(`"a"`, 101)+`]}}`, keyed, "facetFilters.brand: needs 1 to 100 values"),
	)
})

var _ = Describe("Shaping facets", func() {
	It("reads the counts under their filters and the stats of numeric facets", func() {
		plan, err := searchquery.Build(decode(`{"distinct": false, "facets": ["brand", "price", "inStock"], "facetFilters": {"brand": ["acme"]}}`),
			searchquery.KeyedAccess(shopSettings), shopSchema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"hits": {"total": {"value": 3}, "hits": []}, "aggregations": {
			"f0": {"buckets": [{"key": "acme", "doc_count": 3}, {"key": "globex", "doc_count": 2}]},
			"f1": {"doc_count": 3, "v": {"buckets": [{"key": 10, "doc_count": 2}, {"key": 30.5, "doc_count": 1}]},
				"s": {"count": 3, "min": 10, "max": 30.5, "avg": 16.833333333333332, "sum": 50.5}},
			"f2": {"doc_count": 3, "v": {"buckets": []}}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res.Facets)).To(MatchJSON(`{"brand": [{"value": "acme", "count": 3}, {"value": "globex", "count": 2}],
			"price": [{"value": 10, "count": 2}, {"value": 30.5, "count": 1}], "inStock": []}`))
		Expect(toJSON(res.FacetStats)).To(MatchJSON(`{"price": {"min": 10, "max": 30.5, "avg": 16.833333333333332, "sum": 50.5}}`))
	})

	It("leaves out the stats of a numeric facet no record holds", func() {
		plan, err := searchquery.Build(decode(`{"distinct": false, "facets": ["price"]}`), searchquery.KeyedAccess(shopSettings), shopSchema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"hits": {"total": {"value": 0}, "hits": []}, "aggregations": {
			"f0": {"buckets": []}, "s0": {"count": 0, "min": null, "max": null, "avg": null, "sum": 0}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res)).NotTo(ContainSubstring("facetStats"))
	})
})
