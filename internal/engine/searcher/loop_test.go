package searcher

import (
	bsearch "github.com/blevesearch/bleve/v2/search"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

var _ = Describe("Sorting in the engine's own search loop", func() {
	leaves := map[string]*mapper.Leaf{
		"price":  {Type: "float", Indexed: true, DocValues: true},
		"brand":  {Type: "keyword", Indexed: true, DocValues: true},
		"tag":    {Type: "keyword", Indexed: true},
		"sku":    {Type: "keyword", DocValues: true},
		"title":  {Type: "text", Indexed: true},
		"when":   {Type: "date", Indexed: true, DocValues: true},
		"onsale": {Type: "boolean", Indexed: true, DocValues: true},
	}
	leafOf := func(f string) *mapper.Leaf { return leaves[f] }
	field := func(name string, desc, first bool) *bsearch.SortField {
		sf := &bsearch.SortField{Field: name, Desc: desc}
		if first {
			sf.Missing = bsearch.SortFieldMissingFirst
		}
		return sf
	}
	score := &bsearch.SortScore{Desc: true}

	It("ranks by the score and the fields of a score-first sort, with their options", func() {
		specs, ok := loopSorts(bsearch.SortOrder{score, field("price", true, false), field("brand", false, true), field("gone", false, false)},
			[]string{"_score", "float", "keyword", "long"}, leafOf)
		Expect(ok).To(BeTrue())
		Expect(specs).To(Equal([]docsort.Spec{{Field: "_score", Desc: true}, {Field: "price", Desc: true, UnmappedType: "float"},
			{Field: "brand", MissingFirst: true, UnmappedType: "keyword"}, {Field: "gone", UnmappedType: "long"}}))
	})

	DescribeTable("leaves to bleve a sort by a clause whose values its columns do not hold as bleve's doc values",
		func(order bsearch.SortOrder, types []string, want bool) {
			_, ok := loopSorts(order, types, leafOf)
			Expect(ok).To(Equal(want))
		},
		Entry("dates and booleans", bsearch.SortOrder{field("when", true, false), field("onsale", false, false)}, []string{"date", "boolean"}, true),
		Entry("_doc or _id: bleve sorts by the id", bsearch.SortOrder{score, &bsearch.SortDocID{}}, []string{"_score", "keyword"}, false),
		Entry("a field without doc values", bsearch.SortOrder{score, field("tag", false, false)}, []string{"_score", "keyword"}, false),
		Entry("a field not indexed", bsearch.SortOrder{score, field("sku", false, false)}, []string{"_score", "keyword"}, false),
		Entry("a text field", bsearch.SortOrder{field("title", false, false)}, []string{"text"}, false),
		Entry("an unmapped field of a type the loop does not read", bsearch.SortOrder{field("gone", false, false)}, []string{"ip_range"}, false),
	)

	DescribeTable("renders a missing value as the term bleve sorts it by",
		func(desc, first bool, want string) {
			Expect(bleveMissing(docsort.Spec{Field: "brand", Desc: desc, MissingFirst: first})).To(Equal(want))
		},
		Entry("last ascending: above every term", false, false, bsearch.HighTerm),
		Entry("last descending: below every term", true, false, bsearch.LowTerm),
		Entry("first ascending: below every term", false, true, bsearch.LowTerm),
		Entry("first descending: above every term", true, true, bsearch.HighTerm),
	)
})
