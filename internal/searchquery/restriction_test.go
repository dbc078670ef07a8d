package searchquery_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

// A secured key's restriction goes on top of the request: it can only narrow.
var _ = Describe("A search under a secured key's restriction", func() {
	group := &searchquery.Filter{Field: "brand", Eq: "b2b-42"}
	restricted := searchquery.KeyedAccess(settings).Restricted(&searchquery.Restriction{Filters: group, MaxHits: 5})

	It("adds the key's filter beside the request's, so both must hold", func() {
		body := build(`{"filters": {"field": "price", "range": {"lt": 50}}}`, restricted)
		Expect(toJSON(filtersOf(body))).To(MatchJSON(`[{"range": {"price": {"lt": 50}}}, {"term": {"brand.keyword": "b2b-42"}}]`))
	})

	It("keeps the key's filter when the request tries to undo it", func() {
		body := build(`{"filters": {"or": [{"field": "brand", "eq": "other"}, {"not": {"field": "brand", "eq": "b2b-42"}}]}}`, restricted)
		Expect(toJSON(filtersOf(body))).To(ContainSubstring(`{"term":{"brand.keyword":"b2b-42"}}`))
		Expect(filtersOf(body)).To(HaveLen(2))
	})

	DescribeTable("caps the limit at the key's maxHits, without refusing a larger one",
		func(body string, want float64) {
			Expect(build(body, restricted)["size"]).To(Equal(want))
		},
		Entry("the default limit", `{}`, 5.0),
		Entry("a limit above the cap", `{"limit": 100}`, 5.0),
		Entry("a limit below the cap", `{"limit": 3}`, 3.0),
	)

	It("still refuses a limit no key may ask for", func() {
		_, err := searchquery.Build(decode(`{"limit": 101}`), restricted, schema)
		Expect(err).To(MatchError(ContainSubstring("limit: must be between 1 and 100")))
	})

	It("names the key's filter when it cannot apply, rather than dropping it", func() {
		bad := searchquery.KeyedAccess(settings).Restricted(&searchquery.Restriction{Filters: &searchquery.Filter{Field: "customerGroup", Eq: "b2b-42"}})
		_, err := searchquery.Build(decode(`{}`), bad, schema)
		Expect(err).To(MatchError(`invalid search request: securedKey.filters.field: "customerGroup" is not a filterable field (filterable fields: brand, price, inStock, createdAt, specs.color)`))
	})

	It("applies to the other reads of the catalog too", func() {
		filters, err := searchquery.Filters(nil, restricted, schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(filters)).To(MatchJSON(`[{"term": {"brand.keyword": "b2b-42"}}]`))
		Expect(restricted.HitCap()).To(Equal(5))
	})

	It("changes nothing without a restriction", func() {
		Expect(searchquery.KeyedAccess(settings).Restricted(nil)).To(Equal(searchquery.KeyedAccess(settings)))
	})
})
