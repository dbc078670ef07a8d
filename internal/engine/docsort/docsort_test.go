package docsort

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDocsort(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Document sort keys")
}

var _ = Describe("Comparing sort keys", func() {
	asc := []Spec{{Field: "price"}}
	desc := []Spec{{Field: "price", Desc: true}}
	first := []Spec{{Field: "price", MissingFirst: true}}
	missing := []Val{{Missing: true}}
	low, high := []Val{{N: 1}}, []Val{{N: 2}}

	DescribeTable("orders two keys as ES orders hits",
		func(specs []Spec, a, b []Val, want int) { Expect(Compare(specs, a, b)).To(Equal(want)) },
		Entry("ascending", asc, low, high, -1),
		Entry("descending", desc, low, high, 1),
		Entry("a missing value last ascending", asc, missing, low, 1),
		Entry("a missing value last descending too", desc, missing, low, 1),
		Entry("a missing value first with missing: _first", first, missing, low, -1),
		Entry("two missing values tie", asc, missing, missing, 0),
		Entry("terms by their bytes", asc, []Val{{B: []byte("a")}}, []Val{{B: []byte("b")}}, -1),
		Entry("the next clause on a tie", []Spec{{Field: "a"}, {Field: "b", Desc: true}}, []Val{{N: 1}, {N: 1}}, []Val{{N: 1}, {N: 2}}, 1),
	)
})

var _ = Describe("Parsing sort clauses", func() {
	It("reads names, orders and options, _score descending by default", func() {
		specs, err := Parse([]any{"_score", map[string]any{"price": "asc"},
			map[string]any{"brand": map[string]any{"order": "desc", "missing": "_first", "unmapped_type": "keyword"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(specs).To(Equal([]Spec{{Field: "_score", Desc: true}, {Field: "price"},
			{Field: "brand", Desc: true, MissingFirst: true, UnmappedType: "keyword"}}))
	})

	It("refuses an unknown order and an unknown option", func() {
		_, err := Parse(map[string]any{"price": "up"})
		Expect(err).To(MatchError(ContainSubstring("Unknown SortOrder [up]")))
		_, err = Parse(map[string]any{"price": map[string]any{"bogus": 1}})
		Expect(err).To(MatchError(ContainSubstring("[field_sort] unknown field [bogus]")))
	})
})
