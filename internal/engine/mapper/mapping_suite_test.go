package mapper_test

import (
	"encoding/json"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

func TestMapping(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Mapping Suite")
}

var _ = Describe("Dates", func() {
	// ES docs: "Date field type" > "format" (built-in formats and Java-style patterns).
	DescribeTable("parses values under ES date formats",
		func(value any, format string, expected string) {
			t, err := mapper.ParseDate(value, format)
			Expect(err).NotTo(HaveOccurred())
			Expect(t.UTC().Format(time.RFC3339Nano)).To(Equal(expected))
		},
		Entry("date only", "2024-03-05", "", "2024-03-05T00:00:00Z"),
		Entry("date time with zone", "2024-03-05T10:11:12+02:00", "", "2024-03-05T08:11:12Z"),
		Entry("date time without zone is UTC", "2024-03-05T10:11:12.345", "", "2024-03-05T10:11:12.345Z"),
		Entry("epoch_millis number", 1571646604828.0, "", "2019-10-21T08:30:04.828Z"),
		Entry("epoch_second", "1700000000", "epoch_second", "2023-11-14T22:13:20Z"),
		Entry("Java pattern", "2019-10-21 08:30:04.828", "yyyy-MM-dd HH:mm:ss.SSS", "2019-10-21T08:30:04.828Z"),
		Entry("alternatives", "2019/10/21", "yyyy-MM-dd||yyyy/MM/dd", "2019-10-21T00:00:00Z"),
	)

	It("rejects values that match no format", func() {
		_, err := mapper.ParseDate("yesterday", "")
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("Mapping updates", func() {
	parse := func(s string) *mapper.Mapping {
		m, err := mapper.Parse(json.RawMessage(s))
		Expect(err).NotTo(HaveOccurred())
		return m
	}

	// ES docs: "Update mapping API" — dotted names are objects; types never change.
	It("expands dotted property names and keeps types fixed", func() {
		m := parse(`{"properties":{"a.b":{"type":"long"}}}`)
		Expect(m.Leaves()).To(HaveKey("a.b"))
		_, err := mapper.Merge(m, parse(`{"properties":{"a":{"properties":{"b":{"type":"keyword"}}}}}`))
		Expect(err).To(MatchError(ContainSubstring("mapper [a.b] cannot be changed from type [long] to [keyword]")))
		merged, err := mapper.Merge(m, parse(`{"properties":{"a":{"properties":{"c":{"type":"date"}}}}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(merged.Leaves()).To(HaveKey("a.c"))
		Expect(m.Leaves()).NotTo(HaveKey("a.c"), "merge must not modify the original mapping")
	})
})

var _ = Describe("Analysis", func() {
	// ES docs: "Synonym graph token filter" with inline synonyms and the custom analyzer chain.
	It("builds custom analyzers with folding, synonyms, stop words and stemming", func() {
		a, err := mapper.ParseAnalysis(map[string]any{
			"filter": map[string]any{
				"syn":  map[string]any{"type": "synonym_graph", "synonyms": []any{"tv, television", "ny => new york"}},
				"stem": map[string]any{"type": "stemmer", "language": "english"},
			},
			"analyzer": map[string]any{
				"shop": map[string]any{"type": "custom", "tokenizer": "standard", "filter": []any{"lowercase", "asciifolding", "syn", "stop", "stem"}},
			},
		})
		Expect(err).NotTo(HaveOccurred())
		im, err := mapper.BuildIndexMapping(a)
		Expect(err).NotTo(HaveOccurred())
		an := im.AnalyzerNamed(mapper.BleveAnalyzer("shop", a))
		Expect(an).NotTo(BeNil())
		terms := func(s string) []string {
			var out []string
			for _, t := range an.Analyze([]byte(s)) {
				out = append(out, string(t.Term))
			}
			return out
		}
		Expect(terms("The Crème Brûlée TV")).To(Equal([]string{"creme", "brule", "tv", "televis"}))
		Expect(terms("ny shoes")).To(Equal([]string{"new", "york", "shoe"}))
	})
})
