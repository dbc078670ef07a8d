package searchquery_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Highlighting", func() {
	hl := func(q string, s searchv1alpha1.IndexSettings, typos bool, record string) map[string]any {
		var rec map[string]any
		Expect(json.Unmarshal([]byte(record), &rec)).To(Succeed())
		return searchquery.NewHighlighter(q, s, typos).Apply(rec)
	}
	name := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}, {Path: "specs.material"}}}

	DescribeTable("marks the words the query matched, HTML-escaped",
		func(q string, s searchv1alpha1.IndexSettings, typos bool, record, want string) {
			Expect(toJSON(hl(q, s, typos, record))).To(MatchJSON(want))
		},
		Entry("an exact word, any case", "red", name, true, `{"name": "Red Shoe"}`, `{"name": "<em>Red</em> Shoe"}`),
		Entry("accents folded", "creme", name, true, `{"name": "Crème brûlée"}`, `{"name": "<em>Crème</em> brûlée"}`),
		Entry("an English stem", "running", name, true, `{"name": "Runs fast"}`, `{"name": "<em>Runs</em> fast"}`),
		Entry("the last word as a prefix", "red sho", name, true, `{"name": "red shoes"}`, `{"name": "<em>red</em> <em>shoes</em>"}`),
		Entry("a typo", "sneakr", name, true, `{"name": "Sneaker"}`, `{"name": "<em>Sneaker</em>"}`),
		Entry("no typo when typo tolerance is off", "snaeker x", name, false, `{"name": "Sneaker"}`, `{}`),
		Entry("markup in the value escaped", "red", name, true, `{"name": "<b>red</b> & co"}`, `{"name": "&lt;b&gt;<em>red</em>&lt;/b&gt; &amp; co"}`),
		Entry("a nested field", "cotton", name, true, `{"specs": {"material": "100% cotton"}}`, `{"specs.material": "100% <em>cotton</em>"}`),
		Entry("an array of strings", "red", searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "tags"}}}, true,
			`{"tags": ["red", "blue"]}`, `{"tags": ["<em>red</em>", "blue"]}`),
		Entry("a synonym", "tv", searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
			Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}}}, true,
			`{"name": "Television set"}`, `{"name": "<em>Television</em> set"}`),
		Entry("every string field when none is searchable", "acme", searchv1alpha1.IndexSettings{}, true,
			`{"objectID": "acme", "brand": "Acme", "price": 3, "meta": {"maker": "acme inc"}}`, `{"brand": "<em>Acme</em>", "meta.maker": "<em>acme</em> inc"}`),
		Entry("fields without a match left out", "zzz", name, true, `{"name": "Red Shoe"}`, `{}`),
	)
})

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
		plan, err := searchquery.Build(decode(`{"q": "red", "facets": ["brand", "inStock"], "limit": 2}`), searchquery.KeyedRules(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan, []byte(`{"took": 3, "hits": {"total": {"value": 42, "relation": "eq"}, "hits": [
			{"_id": "a", "_source": {"objectID": "a", "name": "Red shoe", "aisleVersion": 7, "big": 12345678901234567890}},
			{"_id": "b", "_source": {"objectID": "b", "name": "Blue shoe"}}]},
			"aggregations": {"f0": {"buckets": [{"key": "acme", "doc_count": 30}]},
			"f1": {"buckets": [{"key": 1, "key_as_string": "true", "doc_count": 12}]}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res)).To(MatchJSON(`{"total": 42, "offset": 0, "limit": 2, "took": 0,
			"hits": [
				{"objectID": "a", "record": {"objectID": "a", "name": "Red shoe", "big": 12345678901234567890}, "highlights": {"name": "<em>Red</em> shoe"}},
				{"objectID": "b", "record": {"objectID": "b", "name": "Blue shoe"}}],
			"facets": {"brand": [{"value": "acme", "count": 30}], "inStock": [{"value": true, "count": 12}]}}`))
	})

	It("answers empty facets for a facet no record holds", func() {
		plan, err := searchquery.Build(decode(`{"facets": ["brand"]}`), searchquery.KeyedRules(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		res, err := searchquery.Shape(plan, []byte(`{"hits": {"total": {"value": 0}, "hits": []}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res.Facets)).To(MatchJSON(`{"brand": []}`))
		Expect(res.Hits).To(BeEmpty())
	})
})
