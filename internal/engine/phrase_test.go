package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ES puts position_increment_gap (100) positions between the values of a text array, so
// a phrase matches within one value (unless a slop reaches across the gap; the engine
// takes no slop, see docs/engine.md).
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

	DescribeTable("refuse a slop, which the engine cannot honour, rather than match less than ES",
		func(q string) {
			_, err := es.Search().Index(idx).Query(query(q)).Do(ctx)
			Expect(esError(err).Status).To(Equal(400))
			Expect(esError(err).ErrorCause.Reason).To(HaveValue(ContainSubstring("[slop] other than 0 is not supported")))
		},
		Entry("match_phrase", `{"match_phrase":{"t":{"query":"red shoe","slop":2}}}`),
		Entry("match_phrase_prefix", `{"match_phrase_prefix":{"t":{"query":"red sh","slop":1}}}`),
		Entry("multi_match of type phrase", `{"multi_match":{"query":"red shoe","fields":["t"],"type":"phrase","slop":3}}`),
	)
})
