package searchquery_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

func asJSON(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// The recommendation lists filter the catalog as a search does.
var _ = Describe("Filters outside a search", func() {
	public := searchquery.PublicAccess(settings, searchv1alpha1.PublicSearchPolicy{
		AllowedFilters: []searchv1alpha1.FieldPath{"price"}, AllowedFacets: []searchv1alpha1.FieldPath{"brand"},
		ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}},
	})

	It("are a search's filters, with the forced filters for browsers", func() {
		f := &searchquery.Filter{Field: "price", Range: &searchquery.Range{LT: 50.0}}
		keyed, err := searchquery.Filters(f, searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(asJSON(keyed)).To(MatchJSON(`[{"range": {"price": {"lt": 50}}}]`))
		browser, err := searchquery.Filters(f, public, schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(asJSON(browser)).To(MatchJSON(`[{"range": {"price": {"lt": 50}}}, {"terms": {"inStock": [true]}}]`))
		none, err := searchquery.Filters(nil, searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(none).To(BeEmpty())
	})

	It("are refused as a search's are", func() {
		_, err := searchquery.Filters(&searchquery.Filter{Field: "brand", Eq: "x"}, public, schema)
		Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue())
		Expect(err).To(MatchError(`invalid search request: filters.field: "brand" is not allowed in public filters (allowed: price)`))
	})

	It("select a facet value, refusing a field that is no facet and a value it cannot hold", func() {
		q, err := searchquery.FacetFilter("brand", "Acme", searchquery.KeyedAccess(settings), schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(asJSON(q)).To(MatchJSON(`{"term": {"brand.keyword": "Acme"}}`))
		_, err = searchquery.FacetFilter("price", "1", searchquery.KeyedAccess(settings), schema)
		Expect(err).To(MatchError(`invalid search request: field: "price" is not a facet field (facet fields: brand, specs.color, inStock)`))
		_, err = searchquery.FacetFilter("inStock", "maybe", searchquery.KeyedAccess(settings), schema)
		Expect(err).To(MatchError(`invalid search request: value: must be true or false, as field "inStock" holds booleans`))
		_, err = searchquery.FacetFilter("specs.color", "red", public, schema)
		Expect(err).To(MatchError(`invalid search request: field: "specs.color" is not allowed in public facets (allowed: brand)`))
	})
})

var _ = Describe("A record's values at a path", func() {
	It("are read through objects and arrays, scalars only", func() {
		rec := map[string]any{"brand": "Acme", "tags": []any{"a", "b"}, "specs": map[string]any{"color": "red"},
			"variants": []any{map[string]any{"size": 40.0}, map[string]any{"size": 41.0}, map[string]any{}}, "meta": map[string]any{}}
		Expect(searchquery.Values(rec, "brand")).To(Equal([]any{"Acme"}))
		Expect(searchquery.Values(rec, "tags")).To(Equal([]any{"a", "b"}))
		Expect(searchquery.Values(rec, "specs.color")).To(Equal([]any{"red"}))
		Expect(searchquery.Values(rec, "variants.size")).To(Equal([]any{40.0, 41.0}))
		Expect(searchquery.Values(rec, "meta")).To(BeEmpty())
		Expect(searchquery.Values(rec, "missing.path")).To(BeEmpty())
	})
})
