package engine_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// ES docs: "Match query" > fuzziness and prefix_length ("number of beginning characters
// left unchanged for fuzzy matching"). The engine once took prefix_length and ignored it,
// so a typo in the first letter matched on the engine and not on Elasticsearch.
var _ = Describe("Fuzzy matching", Ordered, func() {
	idx := "fuzzy"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"name":{"type":"text"}}}}`,
			[]string{`{"name":"knife"}`, `{"name":"éclair"}`})
	})

	DescribeTable("keeps the first prefix_length characters unchanged",
		func(q string, expected []string) {
			res, err := es.Search().Index(idx).Query(query(q)).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(res)).To(ConsistOf(expected))
		},
		Entry("a typo in the first letter, without prefix_length", `{"match":{"name":{"query":"bnife","fuzziness":"AUTO"}}}`, []string{"1"}),
		Entry("a typo in the first letter, prefix_length 1", `{"match":{"name":{"query":"bnife","fuzziness":"AUTO","prefix_length":1}}}`, []string{}),
		Entry("a typo after the prefix", `{"match":{"name":{"query":"knofe","fuzziness":"AUTO","prefix_length":2}}}`, []string{"1"}),
		Entry("a typo inside the prefix", `{"match":{"name":{"query":"knofe","fuzziness":"AUTO","prefix_length":3}}}`, []string{}),
		Entry("multi_match too", `{"multi_match":{"query":"bnife","fields":["name"],"fuzziness":"AUTO","prefix_length":1}}`, []string{}),
		// The prefix counts characters, not bytes: "é" is one.
		Entry("a prefix of characters beyond ASCII", `{"match":{"name":{"query":"éxlair","fuzziness":1,"prefix_length":2}}}`, []string{}),
		Entry("a typo after such a prefix", `{"match":{"name":{"query":"éxlair","fuzziness":1,"prefix_length":1}}}`, []string{"2"}),
	)

	DescribeTable("refuses fuzzy options it cannot honour, rather than ignore them",
		func(q, typ, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":`+q+`}`)
			Expect(code).To(Equal(400))
			Expect(raw).To(ContainSubstring(`"type":"` + typ + `"`))
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("a negative prefix_length", `{"match":{"name":{"query":"knife","fuzziness":1,"prefix_length":-1}}}`, "illegal_argument_exception", "prefixLength cannot be less than 0"),
		Entry("max_expansions of 0", `{"match":{"name":{"query":"knife","fuzziness":1,"max_expansions":0}}}`, "illegal_argument_exception", "[match] requires maxExpansions to be positive."),
		Entry("three edits", `{"match":{"name":{"query":"knife","fuzziness":3}}}`, "illegal_argument_exception", "Valid edit distances are [0, 1, 2] but was [3]"),
		Entry("an AUTO without its bounds in order", `{"match":{"name":{"query":"knife","fuzziness":"AUTO:6,3"}}}`, "parse_exception", "fuzziness wrongly configured"),
		Entry("a rewrite the engine does not have", `{"match":{"name":{"query":"knife","fuzziness":1,"fuzzy_rewrite":"scoring_boolean"}}}`, "illegal_argument_exception", "rewrite method [scoring_boolean] is not supported by this engine"),
		Entry("an unknown rewrite", `{"fuzzy":{"name":{"value":"knife","rewrite":"best"}}}`, "illegal_argument_exception", "Failed to parse rewrite_method [best]"),
		Entry("an unknown option", `{"match":{"name":{"query":"knife","prefix_len":1}}}`, "parsing_exception", "[match] query does not support [prefix_len]"),
	)
})

// Lucene's FuzzyQuery as Elasticsearch builds it: the terms within the edits (Damerau's
// with transpositions, Levenshtein's without, the first prefix_length characters
// unchanged), of which the max_expansions most similar (1 - edits/shorter length, then
// term order), scored as Lucene's TopTermsBlendedFreqScoringRewrite: each term's BM25
// with the highest doc freq of the expansions, weighed by its similarity.
var _ = Describe("Fuzzy expansion", Ordered, func() {
	idx := "fuzzy-expansion"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"w":{"type":"text"},"k":{"type":"keyword"},"n":{"type":"long"}}}}`,
			[]string{`{"w":"abcde","k":"abcde"}`, `{"w":"abcde"}`, `{"w":"abcdf"}`, `{"w":"abxde"}`, `{"w":"abcd"}`, `{"w":"axcdf"}`, `{"w":"abdce"}`, `{"w":"bbcde"}`})
	})

	DescribeTable("matches the terms Lucene's rewrite keeps",
		func(q string, expected []string) {
			res, err := es.Search().Index(idx).Query(query(q)).Size(20).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			Expect(ids(res)).To(ConsistOf(expected))
		},
		Entry("two edits reach every term", `{"match":{"w":{"query":"abcde","fuzziness":2}}}`, []string{"1", "2", "3", "4", "5", "6", "7", "8"}),
		Entry("max_expansions keeps the most similar, ties in term order", `{"match":{"w":{"query":"abcde","fuzziness":2,"max_expansions":3}}}`, []string{"1", "2", "3", "7"}),
		Entry("a transposition is one edit", `{"match":{"w":{"query":"abcde","fuzziness":1}}}`, []string{"1", "2", "3", "4", "5", "7", "8"}),
		Entry("without transpositions it is two", `{"match":{"w":{"query":"abcde","fuzziness":1,"fuzzy_transpositions":false}}}`, []string{"1", "2", "3", "4", "5", "8"}),
		Entry("multi_match passes them on", `{"multi_match":{"query":"abcde","fields":["w"],"fuzziness":1,"fuzzy_transpositions":false,"prefix_length":1}}`, []string{"1", "2", "3", "4", "5"}),
		Entry("the fuzzy query: prefix, max_expansions, transpositions", `{"fuzzy":{"w":{"value":"abcde","fuzziness":1,"prefix_length":1,"transpositions":false,"max_expansions":2}}}`, []string{"1", "2", "3"}),
		Entry("the fuzzy query's AUTO by default", `{"fuzzy":{"w":"abcdx"}}`, []string{"1", "2", "3", "5"}),
		Entry("AUTO:6,8 gives a five-letter term no edit", `{"match":{"w":{"query":"abcde","fuzziness":"AUTO:6,8"}}}`, []string{"1", "2"}),
		Entry("the constant_score rewrite keeps every term", `{"match":{"w":{"query":"abcde","fuzziness":1,"max_expansions":1,"fuzzy_rewrite":"constant_score"}}}`, []string{"1", "2", "3", "4", "5", "7", "8"}),
		Entry("a keyword's whole value is fuzzy", `{"match":{"k":{"query":"abcdf","fuzziness":1}}}`, []string{"1"}),
		Entry("a number is not fuzzy, when lenient", `{"match":{"n":{"query":"3","fuzziness":1,"lenient":true}}}`, []string{}),
	)

	It("scores each expansion with the blended doc freq, weighed by its similarity", func() {
		Expect(scoresByID(idx, `{"match":{"w":{"query":"abcde","fuzziness":1,"prefix_length":1}}}`)).To(Equal(map[string]float32{
			"1": 0.5822426080703735, "2": 0.5822426080703735, // exact: similarity 1
			"3": 0.4657941460609436, "4": 0.4657941460609436, "7": 0.4657941460609436, // one edit of five letters: 0.8
			"5": 0.43668198585510254, // one edit, four letters: 0.75
		}))
	})

	It("scores a constant with the constant_score rewrite", func() {
		Expect(scoresByID(idx, `{"match":{"w":{"query":"abcdf","fuzziness":1,"fuzzy_rewrite":"constant_score","boost":3}}}`)).To(Equal(map[string]float32{
			"1": 3, "2": 3, "3": 3, "5": 3, "6": 3,
		}))
	})

	It("refuses a fuzzy query on a number, as ES does", func() {
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":{"fuzzy":{"n":{"value":"3"}}}}`)
		Expect(code).To(Equal(400))
		Expect(raw).To(ContainSubstring("Can only use fuzzy queries on keyword and text fields - not on [n] which is of type [long]"))
	})
})
