package searchquery_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var settings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "price", "inStock", "createdAt", "specs.color"},
	FacetFields:      []searchv1alpha1.FieldPath{"brand", "specs.color", "inStock"},
	SortableFields:   []searchv1alpha1.FieldPath{"price", "name", "missing"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: "desc"}},
}

var schema = searchquery.Schema{
	"name":        {Path: "name", Kind: searchquery.KindString, Keyword: "name.keyword"},
	"description": {Path: "description", Kind: searchquery.KindString, Keyword: "description.keyword"},
	"brand":       {Path: "brand", Kind: searchquery.KindString, Keyword: "brand.keyword"},
	"price":       {Path: "price", Kind: searchquery.KindNumber, Keyword: "price"},
	"popularity":  {Path: "popularity", Kind: searchquery.KindNumber, Type: "long", Keyword: "popularity"},
	"inStock":     {Path: "inStock", Kind: searchquery.KindBool, Keyword: "inStock"},
	"createdAt":   {Path: "createdAt", Kind: searchquery.KindDate, Keyword: "createdAt"},
	"specs.color": {Path: "specs.color", Kind: searchquery.KindString, Keyword: "specs.color.keyword"},
}

// decode reads a request the way the API does.
func decode(body string) searchquery.Request {
	var r searchquery.Request
	Expect(json.Unmarshal([]byte(body), &r)).To(Succeed())
	return r
}

func build(body string, r searchquery.Access) map[string]any {
	plan, err := searchquery.Build(decode(body), r, schema)
	Expect(err).NotTo(HaveOccurred())
	var m map[string]any
	Expect(json.Unmarshal(plan.Bodies.Search, &m)).To(Succeed())
	return m
}

func filtersOf(m map[string]any) any {
	return m["query"].(map[string]any)["bool"].(map[string]any)["filter"]
}

func toJSON(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var policy = searchv1alpha1.PublicSearchPolicy{
	MaxHits:           10,
	RetrievableFields: []searchv1alpha1.FieldPath{"name", "price"},
	ForcedFilters: []searchv1alpha1.FilterCondition{
		{Field: "brand", Values: []string{"acme"}},
		{Field: "price", Range: &searchv1alpha1.RangeBounds{LT: ptr("100")}},
	},
	AllowedFacets:  []searchv1alpha1.FieldPath{"brand"},
	AllowedFilters: []searchv1alpha1.FieldPath{"price", "notConfigured"},
	AllowedSorts:   []searchv1alpha1.FieldPath{"price"},
}

func ptr[T any](v T) *T { return &v }

// longPopularity makes popularity filterable; the schema maps it as a long.
var longPopularity = searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"popularity"}}

var _ = Describe("Building a search", func() {
	keyed := searchquery.KeyedAccess(settings)
	public := searchquery.PublicAccess(settings, policy)

	DescribeTable("refuses a request that breaks a rule, naming the place and the field",
		func(body string, r searchquery.Access, message string) {
			_, err := searchquery.Build(decode(body), r, schema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			Expect(err.Error()).To(ContainSubstring(message))
		},
		Entry("a limit above 100", `{"limit": 101}`, keyed, "limit: must be between 1 and 100"),
		Entry("a limit of 0", `{"limit": 0}`, keyed, "limit: must be between 1 and 100"),
		Entry("a public limit above 50", `{"limit": 51}`, public, "limit: must be between 1 and 50"),
		Entry("a negative offset", `{"offset": -1}`, keyed, "offset: must not be negative"),
		Entry("a page beyond the window", `{"offset": 990, "limit": 20}`, keyed, "offset + limit must be at most 1000"),
		Entry("a filter on a field that is not filterable", `{"filters": {"field": "color", "eq": "red"}}`, keyed,
			`filters.field: "color" is not a filterable field (filterable fields: brand, price, inStock, createdAt, specs.color)`),
		Entry("a nested filter on a field that is not filterable", `{"filters": {"and": [{"field": "brand", "eq": "a"}, {"or": [{"field": "size", "in": [1]}]}]}}`, keyed,
			`filters.and[1].or[0].field: "size" is not a filterable field`),
		Entry("a facet on a field that is not a facet field", `{"facets": ["price"]}`, keyed,
			`facets[0]: "price" is not a facet field (facet fields: brand, specs.color, inStock)`),
		Entry("a sort on a field that is not sortable", `{"sort": [{"field": "brand"}]}`, keyed,
			`sort[0].field: "brand" is not a sortable field`),
		Entry("a sort order that is neither asc nor desc", `{"sort": [{"field": "price", "order": "up"}]}`, keyed,
			`sort[0].order: must be asc or desc`),
		Entry("a filter node with two operators", `{"filters": {"field": "brand", "eq": "a", "in": ["b"]}}`, keyed,
			"filters: takes exactly one of eq, in, range, exists, and, or, not"),
		Entry("an empty filter node", `{"filters": {}}`, keyed, "filters: needs one of eq, in, range, exists"),
		Entry("a condition without a field", `{"filters": {"eq": "a"}}`, keyed, "filters.field: is required"),
		Entry("an empty and", `{"filters": {"and": []}}`, keyed, "filters.and: needs at least one filter"),
		Entry("an object as a value", `{"filters": {"field": "brand", "eq": {"x": 1}}}`, keyed, "filters.eq: must be a string, number or boolean"),
		Entry("an object among in values", `{"filters": {"field": "brand", "in": ["a", [1]]}}`, keyed, "filters.in[1]: must be a string, number or boolean"),
		Entry("an empty in", `{"filters": {"field": "brand", "in": []}}`, keyed, "filters.in: needs 1 to 100 values"),
		Entry("a range without bounds", `{"filters": {"field": "price", "range": {}}}`, keyed, "filters.range: needs at least one of gt, gte, lt, lte"),
		Entry("a range with two lower bounds", `{"filters": {"field": "price", "range": {"gt": 1, "gte": 2}}}`, keyed, "filters.range: takes at most one lower bound"),
		Entry("a range with a word as a bound", `{"filters": {"field": "createdAt", "range": {"gte": "yesterday"}}}`, keyed, "filters.range.gte: must be a number or a date"),
		Entry("a date bound on a number field", `{"filters": {"field": "price", "range": {"gte": "2024-01-01"}}}`, keyed, "filters.range.gte: must be a number or a date"),
		Entry("an offset so large that offset + limit overflows", `{"offset": 9223372036854775807, "limit": 10}`, keyed, "offset + limit must be at most 1000"),
		Entry("a word as the value of a number field", `{"filters": {"field": "price", "eq": "abc"}}`, keyed, `filters.eq: must be a number, as field "price" holds numbers`),
		Entry("a word among in values of a number field", `{"filters": {"field": "price", "in": [3, "x"]}}`, keyed, `filters.in[1]: must be a number, as field "price" holds numbers`),
		Entry("a word as the value of a boolean field", `{"filters": {"field": "inStock", "eq": "maybe"}}`, keyed, `filters.eq: must be true or false, as field "inStock" holds booleans`),
		Entry("a number as the value of a boolean field", `{"filters": {"field": "inStock", "eq": 1}}`, keyed, `filters.eq: must be true or false`),
		Entry("a word as the value of a date field", `{"filters": {"field": "createdAt", "eq": "soon"}}`, keyed, `filters.eq: must be a date`),
		Entry("a range on a boolean field", `{"filters": {"field": "inStock", "range": {"gte": 1}}}`, keyed, `filters.range.gte: field "inStock" has no range`),
		Entry("a number bound beyond a long", `{"filters": {"field": "popularity", "range": {"gte": 1e300}}}`, searchquery.KeyedAccess(longPopularity), `filters.range.gte: must be a number, as field "popularity" holds numbers`),
		Entry("filters nested too deep", `{"filters": {"not": {"not": {"not": {"not": {"not": {"field": "brand", "eq": "a"}}}}}}}`, keyed, "filters nest at most 5 levels deep"),
		Entry("a public facet the policy does not allow", `{"facets": ["specs.color"]}`, public,
			`facets[0]: "specs.color" is not allowed in public facets (allowed: brand)`),
		Entry("a public filter allowed by the policy but not configured", `{"filters": {"field": "notConfigured", "eq": 1}}`, public,
			`filters.field: "notConfigured" is not in the index's filterableFields (the public policy allows it, but a field must be in both)`),
		Entry("a public sort the policy does not allow", `{"sort": [{"field": "name"}]}`, public, `sort[0].field: "name" is not allowed in public sorts`),
		Entry("a public field that is not retrievable", `{"fields": ["description"]}`, public, `fields[0]: "description" is not a retrievable field`),
	)

	It("names every broken rule in one error", func() {
		_, err := searchquery.Build(decode(`{"limit": 500, "facets": ["x"], "filters": {"field": "y", "eq": 1}}`), keyed, schema)
		Expect(err).To(MatchError(And(ContainSubstring("limit:"), ContainSubstring(`facets[0]: "x"`), ContainSubstring(`filters.field: "y"`))))
	})

	It("matches every record in relevance then custom ranking order for an empty query", func() {
		m := build(`{}`, keyed)
		Expect(toJSON(m["query"])).To(MatchJSON(`{"bool": {"must": [{"match_all": {}}]}}`))
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"_score": {"order": "desc"}}, {"popularity": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
		Expect(m["size"]).To(BeEquivalentTo(20))
		Expect(m["from"]).To(BeEquivalentTo(0))
		Expect(m["track_total_hits"]).To(BeTrue())
		Expect(toJSON(m["_source"])).To(MatchJSON(`{"excludes": ["aisleVersion"]}`))
	})

	It("matches each word by its best variant, each a constant score carrying the word's levels", func() {
		one := searchquery.KeyedAccess(searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
		// One word, one field: typo (3 levels, base 2) and exact (2 levels, base 1) bands;
		// the exact variant is typo 2 and exact 1 (5), the one-typo variant typo 1 (2).
		m := build(`{"q": "shoe ", "matchingStrategy": "all"}`, one)
		Expect(toJSON(textQuery(m)["must"])).To(MatchJSON(`[{"dis_max": {"queries": [
			{"constant_score": {"filter": {"match": {"name": {"query": "shoe", "operator": "and"}}}, "boost": 5}},
			{"constant_score": {"filter": {"match": {"name.words": {"query": "shoe", "operator": "and", "fuzziness": 1,
				"prefix_length": 1, "fuzzy_transpositions": true}}}, "boost": 2}}
		]}}]`))
		Expect(tailBoost(textQuery(m), "match", "name")).To(BeNumerically("<", 0.45/2/20), "BM25 stays below the fraction it may take")
	})

	It("matches every text field at once when none is configured, leaving typos out when typo tolerance is off", func() {
		m := build(`{"q": "red", "typoTolerance": false, "matchingStrategy": "all"}`, searchquery.KeyedAccess(searchv1alpha1.IndexSettings{}))
		Expect(toJSON(textQuery(m)["must"])).To(MatchJSON(`[{"dis_max": {"queries": [
			{"constant_score": {"filter": {"multi_match": {"query": "red", "lenient": true, "operator": "and"}}, "boost": 1}},
			{"constant_score": {"filter": {"multi_match": {"query": "red", "lenient": true, "type": "bool_prefix", "operator": "and"}}, "boost": 0}}
		]}}]`))
	})

	DescribeTable("turns filters into exact-value queries on the right field",
		func(filters, want string) {
			Expect(toJSON(filtersOf(build(`{"filters": `+filters+`}`, keyed)))).To(MatchJSON(want))
		},
		Entry("equality on a string goes to .keyword", `{"field": "brand", "eq": "acme"}`, `[{"term": {"brand.keyword": "acme"}}]`),
		Entry("equality on a nested string", `{"field": "specs.color", "eq": "red"}`, `[{"term": {"specs.color.keyword": "red"}}]`),
		Entry("equality on a number stays on the field", `{"field": "price", "eq": 10}`, `[{"term": {"price": 10}}]`),
		Entry("equality on a boolean", `{"field": "inStock", "eq": true}`, `[{"term": {"inStock": true}}]`),
		Entry("a set", `{"field": "brand", "in": ["a", "b"]}`, `[{"terms": {"brand.keyword": ["a", "b"]}}]`),
		Entry("a numeric range", `{"field": "price", "range": {"gte": 10, "lt": 100}}`, `[{"range": {"price": {"gte": 10, "lt": 100}}}]`),
		Entry("a date range", `{"field": "createdAt", "range": {"gte": "2024-01-01", "lt": "2024-02-01T00:00:00Z"}}`,
			`[{"range": {"createdAt": {"gte": "2024-01-01", "lt": "2024-02-01T00:00:00Z"}}}]`),
		Entry("exists", `{"field": "brand", "exists": true}`, `[{"exists": {"field": "brand"}}]`),
		Entry("does not exist", `{"field": "brand", "exists": false}`, `[{"bool": {"must_not": [{"exists": {"field": "brand"}}]}}]`),
		Entry("and, or and not", `{"and": [{"field": "brand", "eq": "a"}, {"or": [{"field": "price", "range": {"lt": 5}}, {"not": {"field": "inStock", "eq": false}}]}]}`,
			`[{"bool": {"must": [{"term": {"brand.keyword": "a"}}, {"bool": {"minimum_should_match": 1, "should": [
				{"range": {"price": {"lt": 5}}}, {"bool": {"must_not": [{"term": {"inStock": false}}]}}]}}]}}]`),
	)

	It("filters a configured field that no record holds yet by its value's type", func() {
		s := searchquery.KeyedAccess(searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"size", "weight"}})
		plan, err := searchquery.Build(decode(`{"filters": {"and": [{"field": "size", "eq": "XL"}, {"field": "weight", "eq": 3}]}}`), s, searchquery.Schema{})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(plan.Bodies.Search)).To(ContainSubstring(`{"term":{"size.keyword":"XL"}},{"term":{"weight":3}}`))
	})

	It("counts facet values on the exact field, with the requested number of values", func() {
		m := build(`{"facets": ["brand", "specs.color", "inStock"], "maxValuesPerFacet": 5}`, keyed)
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{
			"f0": {"terms": {"field": "brand.keyword", "size": 5}},
			"f1": {"terms": {"field": "specs.color.keyword", "size": 5}},
			"f2": {"terms": {"field": "inStock", "size": 5}}}`))
	})

	It("sorts by the requested fields first, skipping those no record holds", func() {
		m := build(`{"sort": [{"field": "price", "order": "desc"}, {"field": "name"}, {"field": "missing"}]}`, keyed)
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"price": {"order": "desc"}}, {"name.keyword": {"order": "asc"}},
			{"_score": {"order": "desc"}}, {"popularity": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
	})

	It("pages with offset and limit", func() {
		m := build(`{"offset": 40, "limit": 20}`, keyed)
		Expect(m["from"]).To(BeEquivalentTo(40))
		Expect(m["size"]).To(BeEquivalentTo(20))
	})

	Describe("for browsers", func() {
		It("caps hits at the policy's maxHits, returns only retrievable fields and adds the forced filters", func() {
			m := build(`{"limit": 50, "filters": {"field": "price", "range": {"gte": 5}}}`, public)
			Expect(m["size"]).To(BeEquivalentTo(10))
			Expect(toJSON(m["_source"])).To(MatchJSON(`{"excludes": ["aisleVersion"], "includes": ["objectID", "name", "price"]}`))
			Expect(toJSON(filtersOf(m))).To(MatchJSON(`[{"range": {"price": {"gte": 5}}},
				{"terms": {"brand.keyword": ["acme"]}}, {"range": {"price": {"lt": 100}}}]`))
		})

		It("caps hits at 20 without a policy", func() {
			m := build(`{"limit": 50}`, searchquery.PublicAccess(settings, searchv1alpha1.PublicSearchPolicy{}))
			Expect(m["size"]).To(BeEquivalentTo(20))
		})

		It("allows nothing but relevance without a policy", func() {
			_, err := searchquery.Build(decode(`{"facets": ["brand"]}`), searchquery.PublicAccess(settings, searchv1alpha1.PublicSearchPolicy{}), schema)
			Expect(err).To(MatchError(ContainSubstring("allowed in public facets (allowed: none)")))
		})
	})
})

var _ = Describe("A public search policy's forced filters", func() {
	forcing := func(conds ...searchv1alpha1.FilterCondition) searchv1alpha1.PublicSearchPolicy {
		return searchv1alpha1.PublicSearchPolicy{ForcedFilters: conds}
	}

	DescribeTable("are refused when a search could not apply them, naming the place",
		func(cond searchv1alpha1.FilterCondition, message string) {
			err := searchquery.CheckPolicy(forcing(cond), schema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "%v", err)
			Expect(err).To(MatchError(ContainSubstring(message)))
		},
		Entry("a word as a bound of a number field", searchv1alpha1.FilterCondition{Field: "price", Range: &searchv1alpha1.RangeBounds{GTE: ptr("abc")}},
			`forcedFilters[0].range.gte: "abc" must be a finite number`),
		Entry("a number too large for a double", searchv1alpha1.FilterCondition{Field: "price", Range: &searchv1alpha1.RangeBounds{LT: ptr("1e400")}},
			`forcedFilters[0].range.lt: "1e400" must be a finite number`),
		Entry("1e400 on a field no record holds yet", searchv1alpha1.FilterCondition{Field: "weight", Range: &searchv1alpha1.RangeBounds{LT: ptr("1e400")}},
			`forcedFilters[0].range.lt: "1e400" must be a finite number or a date`),
		Entry("a word among the values of a number field", searchv1alpha1.FilterCondition{Field: "price", Values: []string{"3", "abc"}},
			`forcedFilters[0].values[1]: must be a number`),
		Entry("a word among the values of a boolean field", searchv1alpha1.FilterCondition{Field: "inStock", Values: []string{"maybe"}},
			`forcedFilters[0].values[0]: must be true or false`),
	)

	It("accepts values and bounds that fit their fields", func() {
		Expect(searchquery.CheckPolicy(policy, schema)).To(Succeed())
		Expect(searchquery.CheckPolicy(forcing(
			searchv1alpha1.FilterCondition{Field: "inStock", Values: []string{"true"}},
			searchv1alpha1.FilterCondition{Field: "createdAt", Range: &searchv1alpha1.RangeBounds{GTE: ptr("2024-01-01")}},
			searchv1alpha1.FilterCondition{Field: "weight", Range: &searchv1alpha1.RangeBounds{GTE: ptr("2.5")}},
		), schema)).To(Succeed())
	})

	It("match no record at search time when a value no longer fits its field, rather than failing the search", func() {
		p := forcing(searchv1alpha1.FilterCondition{Field: "price", Range: &searchv1alpha1.RangeBounds{GTE: ptr("abc")}},
			searchv1alpha1.FilterCondition{Field: "inStock", Values: []string{"maybe", "true"}})
		m := build(`{}`, searchquery.PublicAccess(settings, p))
		Expect(toJSON(filtersOf(m))).To(MatchJSON(`[{"match_none": {}}, {"terms": {"inStock": [true]}}]`))
	})
})

// tailBoost is the boost of the query's BM25 tie-breaker, a should clause of kind on
// field ("" for multi_match).
func tailBoost(text map[string]any, kind, field string) float64 {
	for _, c := range text["should"].([]any) {
		q, ok := c.(map[string]any)[kind].(map[string]any)
		if !ok {
			continue
		}
		if field != "" {
			q, _ = q[field].(map[string]any)
		}
		if b, ok := q["boost"].(float64); ok {
			return b
		}
	}
	Fail("no BM25 tie-breaker in " + toJSON(text))
	return 0
}
