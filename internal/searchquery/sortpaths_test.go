package searchquery_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("The fields a search sorts on", func() {
	settings := searchv1alpha1.IndexSettings{CustomRanking: []searchv1alpha1.RankingRule{
		{Field: "popularity", Order: "desc"}, {Field: searchv1alpha1.PopularityField, Order: "desc"}}}

	It("are the request's sort, then the custom ranking's fields, without the popularity no record holds", func() {
		req := searchquery.Request{Sort: []searchquery.Sort{{Field: "price", Order: "asc"}}}
		Expect(searchquery.SortPaths(req, searchquery.KeyedAccess(settings))).To(Equal([]string{"price", "popularity"}))
		Expect(searchquery.SortPaths(searchquery.Request{}, searchquery.KeyedAccess(searchv1alpha1.IndexSettings{}))).To(BeEmpty())
	})

	DescribeTable("are lacking from a mapping that does not hold one of them",
		func(paths []string, lacks bool) {
			schema := searchquery.Schema{"price": {Path: "price", Kind: searchquery.KindNumber, Keyword: "price"}}
			Expect(schema.Lacks(paths)).To(Equal(lacks))
		},
		Entry("none asked", nil, false),
		Entry("every one mapped", []string{"price"}, false),
		Entry("one not mapped yet", []string{"price", "popularity"}, true),
	)
})
