package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A phrase's slop is how many position moves its terms may need to match, as Lucene's
// sloppy phrase counts them: "quick fox" matches "quick brown fox" with a slop of 1, and
// "fox quick" needs 3 (Elasticsearch's guide to proximity matching); transposed terms
// need 2. The expected scores are Lucene 8.7's for the same documents and query (a
// MultiPhraseQuery with the slop on a whitespace-analyzed field, BM25 defaults): its
// frequency is the sum of 1 / (1 + match length) over the matches, with the summed idf
// of the phrase's terms.
var _ = Describe("Phrases with a slop", Ordered, func() {
	const idx = "slop"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"t":{"type":"text"},"u":{"type":"text"},"e":{"type":"text","analyzer":"english"}}}}`, []string{
			`{"t":"quick brown fox","u":"fox and quick","e":"pen of steel"}`,
			`{"t":"quick fox","e":"pen steel"}`,
			`{"t":"fox quick","e":"steel pen"}`,
			`{"t":"the quick red fox jumps over the lazy brown dog"}`,
			`{"t":"fox"}`,
		})
	})

	DescribeTable("score as Lucene's sloppy phrases, to the bit",
		func(query string, want map[string]float32) {
			Expect(scoresByID(idx, query)).To(Equal(want))
		},
		Entry("a slop of 0 is an exact phrase", `{"match_phrase":{"t":{"query":"quick fox","slop":0}}}`,
			map[string]float32{"2": 0.20816302}),
		Entry("one word between: one move, half the frequency", `{"match_phrase":{"t":{"query":"quick fox","slop":1}}}`,
			map[string]float32{"2": 0.20816302, "1": 0.12086886, "4": 0.056771755}),
		Entry("transposed words are two moves", `{"match_phrase":{"t":{"query":"fox quick","slop":2}}}`,
			map[string]float32{"3": 0.20816302, "2": 0.11020395}),
		Entry("reversed and a word apart, three", `{"match_phrase":{"t":{"query":"fox quick","slop":3}}}`,
			map[string]float32{"3": 0.20816302, "2": 0.11020395, "1": 0.07205644, "4": 0.030712575}),
		Entry("a phrase prefix's expansions with a slop", `{"match_phrase_prefix":{"t":{"query":"fox qu","slop":3}}}`,
			map[string]float32{"3": 0.20816302, "2": 0.11020395, "1": 0.07205644, "4": 0.030712575}),
		Entry("multi_match of type phrase: the best field, with its boost",
			`{"multi_match":{"query":"fox quick","fields":["t","u^2"],"type":"phrase","slop":3}}`,
			map[string]float32{"3": 0.20816302, "2": 0.11020395, "1": 0.33844948, "4": 0.030712575}),
		Entry("a numeric string is a slop too", `{"match_phrase":{"t":{"query":"fox quick","slop":"2"}}}`,
			map[string]float32{"3": 0.20816302, "2": 0.11020395}),
	)

	// The english analyzer drops "of": the query "pen of steel" keeps a position between
	// its words, as the indexed text does, so it is one move from "pen steel".
	DescribeTable("keep the positions of removed stop words",
		func(query string, expected []string) {
			Expect(scoresByID(idx, query)).To(HaveLen(len(expected)))
			for _, id := range expected {
				Expect(scoresByID(idx, query)).To(HaveKey(id))
			}
		},
		Entry("an exact phrase matches the words as far apart", `{"match_phrase":{"e":"pen of steel"}}`, []string{"1"}),
		Entry("and words side by side only side by side", `{"match_phrase":{"e":"pen steel"}}`, []string{"2"}),
		Entry("a slop of 1 spans the stop word", `{"match_phrase":{"e":{"query":"pen steel","slop":1}}}`, []string{"1", "2"}),
		Entry("the transposed words are three moves from the gap", `{"match_phrase":{"e":{"query":"pen of steel","slop":3}}}`, []string{"1", "2", "3"}),
	)

	DescribeTable("refuse a slop ES refuses",
		func(query, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":`+query+`}`)
			Expect(code).To(Equal(400))
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("a negative slop", `{"match_phrase":{"t":{"query":"quick fox","slop":-1}}}`, "No negative slop allowed."),
		Entry("a slop that is no number", `{"match_phrase_prefix":{"t":{"query":"quick fo","slop":"x"}}}`, "[slop]"),
		Entry("a negative slop in multi_match", `{"multi_match":{"query":"quick fox","fields":["t"],"type":"phrase","slop":-2}}`, "No negative slop allowed."),
	)
})
