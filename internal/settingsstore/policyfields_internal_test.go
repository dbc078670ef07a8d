package settingsstore

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var _ = Describe("The fields a public search policy allows", func() {
	settings := searchv1alpha1.IndexSettings{
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
		FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"},
		SortableFields:   []searchv1alpha1.FieldPath{"price"},
	}
	DescribeTable("must each be in the settings' list for it",
		func(p searchv1alpha1.PublicSearchPolicy, want []string) {
			var got []string
			for _, e := range policyFieldProblems(settings, p) {
				got = append(got, e.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("no field allowed", searchv1alpha1.PublicSearchPolicy{}, nil),
		Entry("fields the settings list", searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand"},
			AllowedFilters: []searchv1alpha1.FieldPath{"price", "brand"}, AllowedSorts: []searchv1alpha1.FieldPath{"price"}}, nil),
		Entry("a facet the settings do not facet", searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand", "price"}},
			[]string{`allowedFacets[1]: "price" is not in the settings' facetFields: add it there first (PUT /config)`}),
		Entry("a filter and a sort the settings do not list", searchv1alpha1.PublicSearchPolicy{
			AllowedFilters: []searchv1alpha1.FieldPath{"color"}, AllowedSorts: []searchv1alpha1.FieldPath{"brand"}},
			[]string{`allowedFilters[0]: "color" is not in the settings' filterableFields: add it there first (PUT /config)`,
				`allowedSorts[0]: "brand" is not in the settings' sortableFields: add it there first (PUT /config)`}),
	)
})
