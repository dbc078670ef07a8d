package searchquery_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

var _ = Describe("A request's explain", func() {
	DescribeTable("reads true, false or an objectID",
		func(body string, want searchquery.Explain) {
			var req searchquery.Request
			Expect(strictjson.Decode([]byte(body), &req)).To(Succeed())
			Expect(req.Explain).To(Equal(want))
		},
		Entry("absent", `{}`, searchquery.Explain{}),
		Entry("true", `{"explain": true}`, searchquery.Explain{On: true}),
		Entry("false", `{"explain": false}`, searchquery.Explain{}),
		Entry("an objectID, which explains the hits too", `{"explain": {"objectID": "sku-1"}}`, searchquery.Explain{On: true, ObjectID: "sku-1"}),
		Entry("an objectID of 512 bytes", `{"explain": {"objectID": "`+strings.Repeat("é", 256)+`"}}`, searchquery.Explain{On: true, ObjectID: strings.Repeat("é", 256)}),
	)

	DescribeTable("refuses anything else, naming explain",
		func(explain, message string) {
			var req searchquery.Request
			err := strictjson.Decode([]byte(`{"explain": `+explain+`}`), &req)
			Expect(err).To(MatchError(`invalid JSON body: field "explain": ` + message))
		},
		Entry("a number", `1`, `must be true, false or {"objectID": "..."}`),
		Entry("a string", `"yes"`, `must be true, false or {"objectID": "..."}`),
		Entry("an objectID that is a number", `{"objectID": 5}`, "objectID must be a string"),
		Entry("an objectID over 512 bytes", `{"objectID": "`+strings.Repeat("a", 513)+`"}`, "objectID must be at most 512 bytes"),
		Entry("an empty objectID", `{"objectID": ""}`, "objectID must not be empty"),
		Entry("no objectID", `{}`, "objectID is required"),
	)

	It("is refused in either form by public search, as explain always was", func() {
		r := searchquery.PublicAccess(searchv1alpha1.IndexSettings{}, searchv1alpha1.PublicSearchPolicy{})
		_, err := searchquery.Build(searchquery.Request{Explain: searchquery.Explain{On: true, ObjectID: "sku-1"}}, r, searchquery.Schema{})
		Expect(err).To(MatchError(ContainSubstring("explain: is only available with a key")))
	})

	It("is written back in the form it was read", func() {
		for _, body := range []string{`true`, `false`, `{"objectID":"sku-1"}`} {
			var e searchquery.Explain
			Expect(e.UnmarshalJSON([]byte(body))).To(Succeed())
			out, err := e.MarshalJSON()
			Expect(err).NotTo(HaveOccurred())
			Expect(string(out)).To(Equal(body))
		}
	})
})

var _ = Describe("What why not reads of a search", func() {
	settings := searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"}, FacetFields: []searchv1alpha1.FieldPath{"brand", "color"}}
	schema := searchquery.Schema{
		"brand": {Path: "brand", Kind: searchquery.KindString, Type: "keyword", Keyword: "brand"},
		"color": {Path: "color", Kind: searchquery.KindString, Type: "keyword", Keyword: "color"},
		"price": {Path: "price", Kind: searchquery.KindNumber, Type: "float", Keyword: "price"},
	}
	names := func(fs []searchquery.NamedFilter) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Name)
		}
		return out
	}
	policy := searchv1alpha1.PublicSearchPolicy{AllowedFilters: []searchv1alpha1.FieldPath{"brand"}, AllowedFacets: []searchv1alpha1.FieldPath{"brand", "color"},
		ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "brand", Values: []string{"Oak"}}, {Field: "price", Range: &searchv1alpha1.RangeBounds{LT: ptrTo("100")}}}}
	brandOak := &searchquery.Filter{Field: "brand", Eq: "Oak"}

	DescribeTable("names each filter a search applies by where it comes from",
		func(req searchquery.Request, r searchquery.Access, want ...string) {
			fs, err := searchquery.NamedFilters(req, r, schema)
			Expect(err).NotTo(HaveOccurred())
			Expect(names(fs)).To(Equal(append([]string(nil), want...)))
		},
		Entry("none", searchquery.Request{}, searchquery.KeyedAccess(settings)),
		Entry("the request's filters, a secured key's and each facetFilters field, in name order",
			searchquery.Request{Filters: brandOak, FacetFilters: map[string][]any{"color": {"red"}, "brand": {"Oak", "Pine"}}},
			searchquery.KeyedAccess(settings).Restricted(&searchquery.Restriction{Filters: &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: 50.0}}}),
			"filters", "securedKey.filters", "facetFilters.brand", "facetFilters.color"),
		Entry("a browser's: the policy's forced filters too", searchquery.Request{Filters: brandOak}, searchquery.PublicAccess(settings, policy),
			"filters", "forcedFilters[0]", "forcedFilters[1]"),
	)

	It("refuses a request that breaks a rule, as the search does", func() {
		_, err := searchquery.NamedFilters(searchquery.Request{Filters: &searchquery.Filter{Field: "color", Eq: "red"}}, searchquery.KeyedAccess(settings), schema)
		Expect(err).To(MatchError(ContainSubstring(`filters.field: "color" is not a filterable field`)))
	})

	It("names a policy's forced filters for a keyed search, which does not apply them", func() {
		Expect(names(searchquery.ForcedFilters(policy, schema))).To(Equal([]string{"forcedFilters[0]", "forcedFilters[1]"}))
	})

	DescribeTable("orders the criteria as the search does: sort first, the rules' band after typo",
		func(req searchquery.Request, ranking []searchv1alpha1.RankingCriterion, want ...string) {
			Expect(searchquery.Criteria(req, searchv1alpha1.IndexSettings{Ranking: ranking})).To(Equal(want))
		},
		Entry("the default ranking, which places sort first", searchquery.Request{}, nil, "sort", "words", "typo", "rules", "exact", "custom"),
		Entry("a request's sort, before a ranking without it", searchquery.Request{Sort: []searchquery.Sort{{Field: "price"}}}, []searchv1alpha1.RankingCriterion{"words", "custom"},
			"sort", "words", "rules", "custom"),
		Entry("sort where the ranking puts it", searchquery.Request{Sort: []searchquery.Sort{{Field: "price"}}}, []searchv1alpha1.RankingCriterion{"words", "sort", "custom"},
			"words", "rules", "sort", "custom"),
	)
})

func ptrTo[T any](v T) *T { return &v }
