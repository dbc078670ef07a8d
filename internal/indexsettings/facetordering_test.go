package indexsettings_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexsettings"
)

var _ = Describe("A facet ordering", func() {
	DescribeTable("names each problem, placed",
		func(src string, want []string) {
			var fo searchv1alpha1.FacetOrdering
			Expect(json.Unmarshal([]byte(src), &fo)).To(Succeed())
			got := []string{}
			for _, p := range indexsettings.CheckFacetOrdering(&fo, "facetOrdering", []F{"brand", "color"}) {
				got = append(got, p.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("facets and values of facet fields, the others placed by *",
			`{"facets": {"order": ["color", "*"]}, "values": {"brand": {"order": ["Acme"], "sortRemainingBy": "alpha", "hide": ["Junk"]}}}`, []string{}),
		Entry("a facet that is not a facet field, one listed twice",
			`{"facets": {"order": ["size", "brand", "brand"]}}`, []string{
				`facetOrdering.facets.order[0]: "size" is not a facet field (facet fields: brand, color)`,
				`facetOrdering.facets.order[2]: "brand" is listed twice`}),
		Entry("values of a field that is not a facet field", `{"values": {"size": {"order": ["S"]}}}`, []string{
			`facetOrdering.values.size: "size" is not a facet field (facet fields: brand, color)`}),
		Entry("an unknown order of the rest", `{"values": {"brand": {"sortRemainingBy": "random"}}}`, []string{
			"facetOrdering.values.brand.sortRemainingBy: must be count, alpha or hidden"}),
		Entry("a value pinned and hidden, an empty one", `{"values": {"brand": {"order": ["Acme", ""], "hide": ["Acme"]}}}`, []string{
			"facetOrdering.values.brand.order[1]: must be 1 to 256 bytes",
			`facetOrdering.values.brand.hide[0]: "Acme" is also in order: a value is pinned or hidden`}),
	)

	It("bounds its lists", func() {
		many := make([]string, indexsettings.MaxFacetOrderItems+1)
		for i := range many {
			many[i] = strings.Repeat("v", i+1)
		}
		fo := &searchv1alpha1.FacetOrdering{Values: map[string]searchv1alpha1.FacetValuesOrder{"brand": {Hide: many}}}
		Expect(indexsettings.CheckFacetOrdering(fo, "f", []F{"brand"})).To(ConsistOf(
			indexsettings.FieldError{Field: "f.values.brand.hide", Message: "at most 100 entries"}))
	})

	It("is a change applied with the next search", func() {
		next := with(func(s *S) {
			s.FacetOrdering = &searchv1alpha1.FacetOrdering{Facets: &searchv1alpha1.FacetsOrder{Order: []string{"brand"}}}
		})
		Expect(indexsettings.Diff(base, next)).To(Equal(indexsettings.Changes{Applied: []string{"facetOrdering"}, Rebuilt: []string{}}))
		Expect(indexsettings.Check(next, "aisleVersion")).To(BeEmpty())
	})
})
