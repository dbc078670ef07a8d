package indexsettings_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexsettings"
	"github.com/aislehq/aisle/internal/searchquery"
)

func TestIndexSettings(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Index settings")
}

type S = searchv1alpha1.IndexSettings
type F = searchv1alpha1.FieldPath

func sf(path string, w int32) searchv1alpha1.SearchableField {
	return searchv1alpha1.SearchableField{Path: F(path), Weight: w}
}

var base = S{
	SearchableFields: []searchv1alpha1.SearchableField{sf("name", 3), sf("description", 1)},
	FacetFields:      []F{"brand"},
	Language:         searchv1alpha1.LanguageEnglish,
}

func with(change func(*S)) S {
	s := base
	s.SearchableFields = append([]searchv1alpha1.SearchableField{}, base.SearchableFields...)
	change(&s)
	return s
}

var _ = Describe("Classifying a settings change", func() {
	DescribeTable("says which changes apply at once and which need a rebuild",
		func(next S, applied, rebuilt []string) {
			c := indexsettings.Diff(base, next)
			Expect(c.Applied).To(Equal(applied))
			Expect(c.Rebuilt).To(Equal(rebuilt))
		},
		Entry("nothing", base, []string{}, []string{}),
		Entry("a weight", with(func(s *S) { s.SearchableFields[0].Weight = 5 }), []string{"searchableFields"}, []string{}),
		Entry("the same searchable fields in another order", with(func(s *S) {
			s.SearchableFields = []searchv1alpha1.SearchableField{sf("description", 1), sf("name", 3)}
		}), []string{}, []string{}),
		Entry("a new searchable field", with(func(s *S) { s.SearchableFields = append(s.SearchableFields, sf("brand", 1)) }),
			[]string{}, []string{"searchableFields"}),
		Entry("filterable, facet and sortable fields", with(func(s *S) {
			s.FilterableFields, s.FacetFields, s.SortableFields = []F{"price"}, []F{"brand", "color"}, []F{"price"}
		}), []string{"filterableFields", "facetFields", "sortableFields"}, []string{}),
		Entry("custom ranking", with(func(s *S) { s.CustomRanking = []searchv1alpha1.RankingRule{{Field: "popularity"}} }),
			[]string{"customRanking"}, []string{}),
		Entry("synonyms", with(func(s *S) { s.Synonyms = []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}} }),
			[]string{}, []string{"synonyms"}),
		Entry("the language", with(func(s *S) { s.Language = searchv1alpha1.LanguageGeneric }), []string{}, []string{"language"}),
		Entry("the language left to its default", with(func(s *S) { s.Language = "" }), []string{}, []string{}),
		Entry("counting browser orders", with(func(s *S) { s.CountBrowserOrders = true }), []string{"countBrowserOrders"}, []string{}),
		Entry("recommendation settings", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "brand"}
		}), []string{"recommendations"}, []string{}),
		Entry("recommendation settings spelling out the defaults", with(func(s *S) {
			two, one := int32(2), int32(1)
			s.Recommendations = &searchv1alpha1.RecommendationSettings{MinSharedOrders: &two,
				EventWeights: &searchv1alpha1.EventWeights{View: &one}}
		}), []string{}, []string{}),
	)
})

var _ = Describe("Checking settings", func() {
	DescribeTable("names each rule the CRD cannot state",
		func(s S, want []string) {
			var got []string
			for _, e := range indexsettings.Check(s, "aisleVersion") {
				got = append(got, e.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("valid settings", base, nil),
		Entry("the reserved version field", S{FilterableFields: []F{"aisleVersion"}, CustomRanking: []searchv1alpha1.RankingRule{{Field: "aisleVersion"}}},
			[]string{`filterableFields[0]: "aisleVersion" is reserved for record versions`, `customRanking[0].field: "aisleVersion" is reserved for record versions`}),
		Entry("duplicates", S{FacetFields: []F{"brand", "brand"}, SearchableFields: []searchv1alpha1.SearchableField{sf("a", 1), sf("a", 2)}},
			[]string{`searchableFields[1].path: "a" is listed twice`, `facetFields[1]: "brand" is listed twice`}),
		Entry("a searchable field that is also an object", S{SearchableFields: []searchv1alpha1.SearchableField{sf("a", 1), sf("a.b", 1)}},
			[]string{`searchableFields: "a.b": "a" is both a leaf and an object`}),
		Entry("similarWithin outside the facet fields", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"}
		}), []string{`recommendations.similarWithin: "category" is not a facet field (facet fields: brand)`}),
		Entry("similarWithin among the facet fields", with(func(s *S) {
			s.Recommendations = &searchv1alpha1.RecommendationSettings{SimilarWithin: "brand"}
		}), nil),
		Entry("synonym terms the analyzer drops", S{Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "!!!", " ", "4k", "télé"}}}},
			[]string{`synonyms[0].terms[1]: "!!!" holds no letter or digit: the analyzer would drop it, and no index can be built with it`,
				`synonyms[0].terms[2]: " " holds no letter or digit: the analyzer would drop it, and no index can be built with it`}),
	)
})

var _ = Describe("Checking searchable fields against the index's records", func() {
	schema := searchquery.Schema{
		"name":        {Path: "name", Kind: searchquery.KindString, Type: "text"},
		"specs.color": {Path: "specs.color", Kind: searchquery.KindString, Type: "text"},
		"specs.size":  {Path: "specs.size", Kind: searchquery.KindNumber, Type: "long"},
		"empty":       {Path: "empty", Kind: searchquery.KindOther, Type: "object"},
		"price":       {Path: "price", Kind: searchquery.KindNumber, Type: "float"},
	}
	DescribeTable("names each path whose records hold something else than text",
		func(path string, want []string) {
			var got []string
			for _, e := range indexsettings.CheckShapes(S{SearchableFields: []searchv1alpha1.SearchableField{sf(path, 1)}}, schema) {
				got = append(got, e.String())
			}
			Expect(got).To(Equal(want))
		},
		Entry("a text field", "name", nil),
		Entry("a number field (numbers index as text)", "price", nil),
		Entry("a field no record holds yet", "title", nil),
		Entry("a field under an object", "specs.color", nil),
		Entry("a new field under an object", "specs.weight", nil),
		Entry("a new field under an empty object", "empty.note", nil),
		Entry("an object", "specs", []string{`searchableFields[0].path: "specs" holds objects in this index (specs.color, specs.size); a searchable field holds text`}),
		Entry("an empty object", "empty", []string{`searchableFields[0].path: "empty" holds objects in this index; a searchable field holds text`}),
		Entry("a field under a value", "name.first", []string{`searchableFields[0].path: "name" holds values in this index, not objects`}),
		Entry("a field two levels under a value", "price.a.b", []string{`searchableFields[0].path: "price" holds values in this index, not objects`}),
	)
})
