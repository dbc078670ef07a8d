package recommend

import (
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("A list's query parameters", func() {
	DescribeTable("are read with their defaults",
		func(q Query, trending bool, want Params) {
			got, err := ParseParams(q, trending)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("none", Query{}, false, Params{Limit: DefaultLimit}),
		Entry("a limit", Query{Limit: "50"}, false, Params{Limit: 50}),
		Entry("filters", Query{Filters: `{"field": "inStock", "eq": true}`}, false,
			Params{Limit: DefaultLimit, Filter: &searchquery.Filter{Field: "inStock", Eq: true}}),
		Entry("trending's facet", Query{Field: "category", Value: "tvs"}, true, Params{Limit: DefaultLimit, Field: "category", Value: "tvs"}),
	)

	DescribeTable("are refused with a message naming the parameter",
		func(q Query, trending bool, message string) {
			_, err := ParseParams(q, trending)
			Expect(errors.Is(err, ErrBadParameter)).To(BeTrue(), "%v", err)
			Expect(err.Error()).To(HavePrefix("invalid parameter: " + message))
		},
		Entry("limit 0", Query{Limit: "0"}, false, "limit must be an integer from 1 to 50"),
		Entry("limit 51", Query{Limit: "51"}, true, "limit must be an integer from 1 to 50"),
		Entry("a limit that is no number", Query{Limit: "ten"}, false, "limit must be an integer from 1 to 50"),
		Entry("filters that are not JSON", Query{Filters: "{"}, false, "filters must be a filter in the search request's JSON form"),
		Entry("filters with an unknown member", Query{Filters: `{"field": "a", "like": 1}`}, false, "filters must be a filter"),
		Entry("field on a product's list", Query{Field: "category", Value: "tvs"}, false, "field and value are trending's parameters"),
		Entry("field alone", Query{Field: "category"}, true, "field and value go together"),
		Entry("value alone", Query{Value: "tvs"}, true, "field and value go together"),
		Entry("a value too long", Query{Field: "category", Value: strings.Repeat("v", MaxValueLength+1)}, true, "value must be at most 512 bytes"),
		Entry("a value of invalid UTF-8", Query{Field: "category", Value: "\xff"}, true, "field and value must be valid UTF-8"),
	)

	It("knows the lists of a product", func() {
		Expect(ParseList("similar")).To(Succeed())
		Expect(ParseList("goesWith")).To(Succeed())
		for _, name := range []string{"together", "trending", "Similar", "", "goeswith"} {
			Expect(errors.Is(ParseList(name), ErrBadParameter)).To(BeTrue(), name)
		}
	})

	It("names a search rule the filters break as the list's parameter", func() {
		_, err := searchquery.Filters(&searchquery.Filter{Field: "name", Eq: "x"}, searchquery.KeyedAccess(shelf), nil)
		err = badSearchParameter(err)
		Expect(errors.Is(err, ErrBadParameter)).To(BeTrue())
		Expect(err).To(MatchError(`invalid parameter: filters.field: "name" is not a filterable field (filterable fields: brand, inStock)`))
	})
})
