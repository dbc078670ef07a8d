package searchquery

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A unit's clause named for explain", func() {
	shoe := func(boost int64) scoreQuery {
		return constant(map[string]any{"match": map[string]any{"name": "shoe"}}, boost)
	}
	marshal := func(v any) string {
		raw, err := json.Marshal(v)
		Expect(err).NotTo(HaveOccurred())
		return string(raw)
	}

	DescribeTable("carries its _name from where it is built, on its outermost query only",
		func(variants []variant, name, want string) {
			Expect(marshal(bestOf(variants, name))).To(MatchJSON(want))
		},
		Entry("one variant is the clause", []variant{shoe(2)}, "w0",
			`{"constant_score": {"_name": "w0", "boost": 2, "filter": {"match": {"name": "shoe"}}}}`),
		Entry("several are the best of them", []variant{shoe(2), shoe(1)}, "w1",
			`{"dis_max": {"_name": "w1", "queries": [{"constant_score": {"boost": 2, "filter": {"match": {"name": "shoe"}}}},
				{"constant_score": {"boost": 1, "filter": {"match": {"name": "shoe"}}}}]}}`),
		Entry("a unit of several words", []variant{wordsQuery{Bool: wordsBody{Must: []any{shoe(1)}}}}, "w2",
			`{"bool": {"_name": "w2", "must": [{"constant_score": {"boost": 1, "filter": {"match": {"name": "shoe"}}}}]}}`),
		Entry("unnamed without explain", []variant{shoe(2)}, "",
			`{"constant_score": {"boost": 2, "filter": {"match": {"name": "shoe"}}}}`),
	)

	It("leaves the variants it was built from as they were", func() {
		v := shoe(2)
		variants := []variant{v}
		bestOf(variants, "w0")
		Expect(marshal(variants[0])).To(Equal(marshal(v)))
		Expect(marshal(v)).NotTo(ContainSubstring("_name"))
	})
})
