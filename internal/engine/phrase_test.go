package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ES puts position_increment_gap (100) positions between the values of a text array, so
// a phrase matches within one value, unless a slop reaches across the gap.
var _ = Describe("Phrases over the values of a text array", Ordered, func() {
	const idx = "phrases"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"t":{"type":"text"}}}}`, []string{
			`{"t":["red","x shoe"]}`,
			`{"t":"red shoe"}`,
			`{"t":["blue",[],"trail runner"]}`,
		})
	})

	DescribeTable("match as in ES",
		func(q string, expected []string) {
			res, err := es.Search().Index(idx).Query(query(q)).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(res)).To(ConsistOf(expected))
		},
		Entry("a phrase does not join the end of one value to the next", `{"match_phrase":{"t":"red x"}}`, []string{}),
		Entry("nor two words a value apart", `{"match_phrase":{"t":"red shoe"}}`, []string{"2"}),
		Entry("within one value a phrase matches", `{"match_phrase":{"t":"x shoe"}}`, []string{"1"}),
		Entry("and a phrase prefix", `{"match_phrase_prefix":{"t":"trail ru"}}`, []string{"3"}),
		Entry("a phrase prefix does not join values either", `{"match_phrase_prefix":{"t":"blue tr"}}`, []string{}),
		Entry("a slop of 0, ES's default, is taken", `{"match_phrase":{"t":{"query":"x shoe","slop":0}}}`, []string{"1"}),
	)

	DescribeTable("count the gap between values in a slop, as ES does",
		func(q string, expected []string) {
			res, err := es.Search().Index(idx).Query(query(q)).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(res)).To(ConsistOf(expected))
		},
		// "red" is at position 0 and "shoe" at 102: the second value starts 101 positions
		// after the first one's last token.
		Entry("a slop short of the gap keeps to one value", `{"match_phrase":{"t":{"query":"red shoe","slop":100}}}`, []string{"2"}),
		Entry("a slop across it joins two values", `{"match_phrase":{"t":{"query":"red shoe","slop":101}}}`, []string{"1", "2"}),
		Entry("and so does a phrase prefix's", `{"match_phrase_prefix":{"t":{"query":"blue tr","slop":101}}}`, []string{"3"}),
		Entry("and multi_match's", `{"multi_match":{"query":"red shoe","fields":["t"],"type":"phrase","slop":101}}`, []string{"1", "2"}),
	)
})
