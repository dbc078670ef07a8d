package merch_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// filter reads a filter as a request or a rule holds it, decoded from JSON.
func filter(src string) *searchquery.Filter {
	if src == "" {
		return nil
	}
	var f searchquery.Filter
	Expect(json.Unmarshal([]byte(src), &f)).To(Succeed())
	return &f
}

func facets(src string) map[string][]any {
	if src == "" {
		return nil
	}
	var m map[string][]any
	Expect(json.Unmarshal([]byte(src), &m)).To(Succeed())
	return m
}

const shoes = `{"field": "categories", "eq": "shoes"}`

var _ = DescribeTable("Whether a condition's filters and context hold for a search",
	func(condFilters, context, reqFilters, reqFacets string, contexts []string, want bool) {
		c := merch.Condition{Filters: filter(condFilters), Context: context}
		s := merch.Search{Filters: filter(reqFilters), FacetFilters: facets(reqFacets), Contexts: contexts}
		Expect(merch.Holds(c, s)).To(Equal(want))
	},
	Entry("nothing held: any search", "", "", "", "", nil, true),
	Entry("the same clause in filters", shoes, "", shoes, "", nil, true),
	Entry("the clause in facetFilters (a category page)", shoes, "", "", `{"categories": ["shoes"]}`, nil, true),
	Entry("facetFilters of two values: the page shows more", shoes, "", "", `{"categories": ["shoes", "boots"]}`, nil, false),
	Entry("no filter at all", shoes, "", "", "", nil, false),
	Entry("another value", shoes, "", `{"field": "categories", "eq": "boots"}`, "", nil, false),
	Entry("another field", shoes, "", `{"field": "brand", "eq": "shoes"}`, "", nil, false),
	Entry("the clause ANDed with others", shoes, "",
		`{"and": [{"field": "brand", "eq": "Nike"}, {"and": [`+shoes+`]}]}`, "", nil, true),
	Entry("the clause ORed with another: the page shows more", shoes, "",
		`{"or": [`+shoes+`, {"field": "brand", "eq": "Nike"}]}`, "", nil, false),
	Entry("every clause of the condition held, by filters and facetFilters together",
		`{"and": [`+shoes+`, {"field": "brand", "eq": "Nike"}]}`, "", shoes, `{"brand": ["Nike"]}`, nil, true),
	Entry("one clause of the condition missing",
		`{"and": [`+shoes+`, {"field": "brand", "eq": "Nike"}]}`, "", shoes, "", nil, false),
	Entry("in: a value it lists", `{"field": "brand", "in": ["Nike", "Puma"]}`, "", `{"field": "brand", "eq": "Puma"}`, "", nil, true),
	Entry("in: part of its list", `{"field": "brand", "in": ["Nike", "Puma"]}`, "", "", `{"brand": ["Puma", "Nike"]}`, nil, true),
	Entry("in: a value it does not list", `{"field": "brand", "in": ["Nike", "Puma"]}`, "", `{"field": "brand", "in": ["Nike", "Asics"]}`, "", nil, false),
	Entry("eq held by an in of that one value", shoes, "", `{"field": "categories", "in": ["shoes"]}`, "", nil, true),
	Entry("numbers compare as numbers", `{"field": "price", "eq": 10}`, "", `{"field": "price", "in": [10.0]}`, "", nil, true),
	Entry("range: a narrower range", `{"field": "price", "range": {"gte": 0, "lt": 100}}`, "", `{"field": "price", "range": {"gt": 10, "lte": 50}}`, "", nil, true),
	Entry("range: one reaching past it", `{"field": "price", "range": {"gte": 0, "lt": 100}}`, "", `{"field": "price", "range": {"gte": 10, "lte": 100}}`, "", nil, false),
	Entry("range: an open end", `{"field": "price", "range": {"lt": 100}}`, "", `{"field": "price", "range": {"gte": 10}}`, "", nil, false),
	Entry("range: a value in it", `{"field": "price", "range": {"gte": 0, "lt": 100}}`, "", "", `{"price": [20, 30]}`, nil, true),
	Entry("range: a strict bound held by the same strict bound", `{"field": "price", "range": {"gt": 10}}`, "", `{"field": "price", "range": {"gt": 10}}`, "", nil, true),
	Entry("range: a strict bound not held by the same loose one", `{"field": "price", "range": {"gt": 10}}`, "", `{"field": "price", "range": {"gte": 10}}`, "", nil, false),
	Entry("range of dates", `{"field": "date", "range": {"gte": "2030-01-01"}}`, "", `{"field": "date", "range": {"gte": "2030-06-01", "lt": "2030-07-01"}}`, "", nil, true),
	Entry("exists true: any clause on the field", `{"field": "brand", "exists": true}`, "", `{"field": "brand", "eq": "Nike"}`, "", nil, true),
	Entry("exists true: not exists false", `{"field": "brand", "exists": true}`, "", `{"field": "brand", "exists": false}`, "", nil, false),
	Entry("a condition's or: one branch held", `{"or": [`+shoes+`, {"field": "categories", "eq": "boots"}]}`, "", "", `{"categories": ["boots"]}`, nil, true),
	Entry("a search's or: every branch within", `{"field": "brand", "in": ["Nike", "Puma"]}`, "",
		`{"or": [{"field": "brand", "eq": "Nike"}, {"field": "brand", "eq": "Puma"}]}`, "", nil, true),
	Entry("a condition's or of ands: one and held clause by clause", `{"or": [{"and": [`+shoes+`, {"field": "brand", "eq": "Nike"}]}, {"field": "brand", "eq": "Puma"}]}`, "",
		shoes, `{"brand": ["Nike"]}`, nil, true),
	Entry("a condition's or of ands: no and held whole", `{"or": [{"and": [`+shoes+`, {"field": "brand", "eq": "Nike"}]}, {"field": "brand", "eq": "Puma"}]}`, "",
		shoes, "", nil, false),
	Entry("not: the same not", `{"not": `+shoes+`}`, "", `{"not": `+shoes+`}`, "", nil, true),
	Entry("not: anything else", `{"not": `+shoes+`}`, "", `{"field": "categories", "eq": "boots"}`, "", nil, false),
	Entry("a context the search names", "", "mobile", "", "", []string{"landing", "mobile"}, true),
	Entry("a context the search does not name", "", "mobile", "", "", []string{"landing"}, false),
	Entry("a context, no contexts", "", "mobile", "", "", nil, false),
	Entry("filters and context: both held", shoes, "mobile", "", `{"categories": ["shoes"]}`, []string{"mobile"}, true),
	Entry("filters and context: the context missing", shoes, "mobile", "", `{"categories": ["shoes"]}`, nil, false),
	Entry("filters and context: the filters missing", shoes, "mobile", "", "", []string{"mobile"}, false),
)
