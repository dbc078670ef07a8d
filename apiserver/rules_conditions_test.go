package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Rule conditions on filters and contexts (issue 36)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		ci = newRulesIndex()
		putRules(ci,
			`{"objectID": "pine-page", "conditions": [{"filters": {"field": "brand", "eq": "Pine"}}], "consequence": {"userData": {"banner": "pine"}}}`,
			`{"objectID": "mobile", "conditions": [{"context": "mobile"}], "consequence": {"userData": {"banner": "app"}}}`,
			`{"objectID": "mobile-desk", "conditions": [{"pattern": "desk", "anchoring": "contains", "context": "mobile"}],
			  "consequence": {"promote": [{"objectID": "l1", "position": 1}]}}`,
			`{"objectID": "cheap-pine", "conditions": [{"filters": {"and": [{"field": "brand", "eq": "Pine"}, {"field": "price", "range": {"lte": 100}}]}}],
			  "consequence": {"hide": ["l2"]}}`)
	})

	DescribeTable("apply when the search's filters, facetFilters and ruleContexts hold all a condition holds",
		func(body string, applied []string) {
			Expect(ruledSearch(ci, body).AppliedRules).To(Equal(applied))
		},
		Entry("a category page: the empty query, the brand selected in facetFilters",
			`{"q": "", "facetFilters": {"brand": ["Pine"]}}`, []string{"pine-page"}),
		Entry("the same clause in filters", `{"q": "", "filters": {"field": "brand", "eq": "Pine"}}`, []string{"pine-page"}),
		Entry("the clause ANDed with a narrower price: both conditions",
			`{"q": "lamp", "filters": {"and": [{"field": "brand", "eq": "Pine"}, {"field": "price", "range": {"gte": 10, "lt": 50}}]}}`,
			[]string{"cheap-pine", "pine-page"}),
		Entry("two brands selected: the page shows more than Pine", `{"q": "", "facetFilters": {"brand": ["Pine", "Oak"]}}`, nil),
		Entry("no filter", `{"q": ""}`, nil),
		Entry("a context the search names, with the pattern it holds", `{"q": "walnut desk", "ruleContexts": ["mobile"]}`,
			[]string{"mobile-desk", "mobile"}),
		Entry("the pattern without the context", `{"q": "walnut desk"}`, nil),
		Entry("another context", `{"q": "walnut desk", "ruleContexts": ["landing-summer"]}`, nil),
	)

	It("apply their consequences like any rule's", func() {
		res := ruledSearch(ci, `{"q": "walnut desk", "ruleContexts": ["mobile"]}`)
		Expect(res.ids()[0]).To(Equal("l1"))
		Expect(res.Hits[0].Promoted).To(BeTrue())
		Expect(ruledSearch(ci, `{"q": "lamp", "filters": {"and": [{"field": "brand", "eq": "Pine"}, {"field": "price", "range": {"lt": 50}}]}}`).ids()).To(BeEmpty())
	})

	It("refuse malformed ruleContexts, and conditions on fields that are not filterable", func() {
		expectRefused(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "", "ruleContexts": ["on mobile"]}`)),
			http.StatusBadRequest, "ruleContexts[0]: must be 1 to 64 characters: letters, digits, _ and -")
		expectRefused(call(0, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "", "ruleContexts": ["a", "a"]}`)),
			http.StatusBadRequest, `ruleContexts[1]: "a" is listed twice`)
		expectRefused(call(0, http.MethodPut, ci.base+"/rules/bad", ci.writeKey, []byte(`{"conditions": [{"filters": {"field": "name", "eq": "x"}, "context": "x y"}], "consequence": {"hide": ["x"]}}`)),
			http.StatusBadRequest, `invalid rule: conditions[0].context: must be 1 to 64 characters: letters, digits, _ and - (as a search's ruleContexts); `+
				`conditions[0].filters.field: "name" is not a filterable field (filterable fields: brand, inStock, price)`)
	})
})
