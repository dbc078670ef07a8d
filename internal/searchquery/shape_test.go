package searchquery_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Reading the mapping", func() {
	It("lists leaf paths with their kinds and exact fields, leaving out the version field", func() {
		s, err := searchquery.ParseMapping([]byte(`{"aisle.acme.products.records-2": {"mappings": {"properties": {
			"objectID": {"type": "keyword"},
			"aisleVersion": {"type": "long"},
			"name": {"type": "text", "fields": {"keyword": {"type": "keyword", "ignore_above": 256}}},
			"price": {"type": "float"},
			"createdAt": {"type": "date"},
			"inStock": {"type": "boolean"},
			"loc": {"type": "geo_point"},
			"specs": {"properties": {"color": {"type": "text", "fields": {"keyword": {"type": "keyword"}}}, "size": {"properties": {"eu": {"type": "long"}}}}}
		}}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Sorted()).To(Equal([]searchquery.Field{
			{Path: "createdAt", Type: "date", Kind: searchquery.KindDate, Keyword: "createdAt"},
			{Path: "inStock", Type: "boolean", Kind: searchquery.KindBool, Keyword: "inStock"},
			{Path: "loc", Type: "geo_point", Kind: searchquery.KindOther, Keyword: "loc"},
			{Path: "name", Type: "text", Kind: searchquery.KindString, Keyword: "name.keyword"},
			{Path: "objectID", Type: "keyword", Kind: searchquery.KindString, Keyword: "objectID"},
			{Path: "price", Type: "float", Kind: searchquery.KindNumber, Keyword: "price"},
			{Path: "specs.color", Type: "text", Kind: searchquery.KindString, Keyword: "specs.color.keyword"},
			{Path: "specs.size.eu", Type: "long", Kind: searchquery.KindNumber, Keyword: "specs.size.eu"},
		}))
	})
})

var _ = Describe("Shaping the answer", func() {
	It("returns hits without the version field, highlights, facet counts and the total", func() {
		plan, err := searchquery.Build(decode(`{"q": "red", "facets": ["brand", "inStock"], "limit": 2}`), searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"took": 3, "hits": {"total": {"value": 42, "relation": "eq"}, "hits": [
			{"_id": "a", "_source": {"objectID": "a", "name": "Red shoe", "aisleVersion": 7, "big": 12345678901234567890},
				"highlight": {"name": ["<em>Red</em> shoe"], "description": ["<em>red</em>, not returned"]}},
			{"_id": "b", "_source": {"objectID": "b", "name": "Blue shoe"}}]},
			"aggregations": {"f0": {"buckets": [{"key": "acme", "doc_count": 30}]},
			"f1": {"buckets": [{"key": 1, "key_as_string": "true", "doc_count": 12}]}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res)).To(MatchJSON(`{"total": 42, "offset": 0, "limit": 2, "took": 0, "ignoredWords": [],
			"hits": [
				{"objectID": "a", "record": {"objectID": "a", "name": "Red shoe", "big": 12345678901234567890}, "highlights": {"name": "<em>Red</em> shoe"}},
				{"objectID": "b", "record": {"objectID": "b", "name": "Blue shoe"}}],
			"facets": {"brand": [{"value": "acme", "count": 30}], "inStock": [{"value": true, "count": 12}]}}`))
	})

	It("answers empty facets for a facet no record holds", func() {
		plan, err := searchquery.Build(decode(`{"facets": ["brand"]}`), searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"hits": {"total": {"value": 0}, "hits": []}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res.Facets)).To(MatchJSON(`{"brand": []}`))
		Expect(res.Hits).To(BeEmpty())
	})
})
