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
		Entry("max_expansions on a fuzzy match", `{"match":{"name":{"query":"knife","fuzziness":1,"max_expansions":10}}}`, "illegal_argument_exception", "max_expansions with fuzziness is not supported"),
		Entry("fuzzy_transpositions false", `{"multi_match":{"query":"knife","fields":["name"],"fuzziness":1,"fuzzy_transpositions":false}}`, "illegal_argument_exception", "fuzzy_transpositions false is not supported"),
		Entry("an unknown option", `{"match":{"name":{"query":"knife","prefix_len":1}}}`, "parsing_exception", "[match] query does not support [prefix_len]"),
	)
})
