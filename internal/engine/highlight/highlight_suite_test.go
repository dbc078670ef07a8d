package highlight

import (
	"encoding/json"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

func TestHighlight(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Highlight")
}

var _ = Describe("Fuzzy matching", func() {
	// ES's fuzziness: edits counted after prefix_length code points that must be equal;
	// fuzzy_transpositions (default true) counts swapped neighbours as one edit.
	DescribeTable("matches terms within the edits ES allows",
		func(want, term string, edits, prefix int, transpositions, ok bool) {
			f := &fuzzy{edits: edits, prefixLen: prefix, transpositions: transpositions, autoLo: -1}
			Expect(f.within(want, term)).To(Equal(ok))
		},
		Entry("a transposition is one edit", "sheos", "shoes", 1, 0, true, true),
		Entry("without transpositions it is two", "sheos", "shoes", 1, 0, false, false),
		Entry("a substitution", "shoas", "shoes", 1, 0, true, true),
		Entry("an insertion and a deletion are two", "shoe", "shoes", 1, 0, true, true),
		Entry("two edits need fuzziness 2", "shoos", "shoe", 1, 0, true, false),
		Entry("a typo in the prefix never matches", "xhoes", "shoes", 2, 1, true, false),
		Entry("code points, not bytes", "crème", "creme", 1, 0, true, true),
	)

	It("resolves AUTO by the term's length", func() {
		f := fuzziness(map[string]any{"fuzziness": "AUTO"}, "fuzzy_transpositions")
		Expect([]int{f.fix("ab").edits, f.fix("abc").edits, f.fix("abcde").edits, f.fix("abcdef").edits}).To(Equal([]int{0, 1, 1, 2}))
		f = fuzziness(map[string]any{"fuzziness": "AUTO:4,7"}, "fuzzy_transpositions")
		Expect([]int{f.fix("abc").edits, f.fix("abcd").edits, f.fix("abcdefg").edits}).To(Equal([]int{0, 1, 2}))
	})
})

var _ = Describe("Boundaries", func() {
	It("ends sentences after terminators and spaces, not before a lower-case word", func() {
		Expect(sentenceBreaks([]rune("One. Two! e.g. three? x"))).To(Equal(breaks{0, 5, 10, 22, 23}))
		Expect(sentenceBreaks([]rune("Pi is 3.14 today.\nNext"))).To(Equal(breaks{0, 18, 22}))
	})

	It("separates words, space runs and each other character", func() {
		Expect(wordBreaks([]rune("ab  c,d"))).To(Equal(breaks{0, 2, 4, 5, 6, 7}))
	})
})

var _ = Describe("Highlighter", func() {
	// Queries the engine's DSL may not parse yet (dis_max) are read by the highlighter
	// as ES defines them.
	It("marks the variants of a dis_max that matched, and nothing of a bool that did not", func() {
		h := New(&Options{Fields: []Field{{Name: "title", Settings: defaults}}}, decode(`{"bool":{"should":[
			{"dis_max":{"queries":[{"match":{"title":"jacket"}},{"prefix":{"title":"boo"}}]}},
			{"bool":{"must":[{"match":{"title":"red"}},{"match":{"title":"absent"}}]}}]}}`), testIndex())
		got, err := h.Hit([]byte(`{"title":"Red jacket and boots"}`), 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(map[string][]string{"title": {"Red <em>jacket</em> and <em>boots</em>"}}))
	})
})

func decode(s string) any {
	var v any
	Expect(json.Unmarshal([]byte(s), &v)).To(Succeed())
	return v
}

// testIndex maps title as a standard-analyzed text field.
func testIndex() Index {
	im, err := mapper.BuildIndexMapping(nil)
	Expect(err).NotTo(HaveOccurred())
	leaf := &mapper.Leaf{Path: "title", Type: "text", Analyzer: "standard", SearchAnalyzer: "standard"}
	return Index{
		Name:              "t",
		Leaf:              func(p string) *mapper.Leaf { return map[string]*mapper.Leaf{"title": leaf}[p] },
		Leaves:            func() []string { return []string{"title"} },
		Analyzer:          func(name string) analysis.Analyzer { return im.AnalyzerNamed(mapper.BleveAnalyzer(name, nil)) },
		MaxAnalyzedOffset: 1000000,
	}
}
