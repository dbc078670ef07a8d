package esanalysis_test

import (
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/esanalysis"
)

func TestESAnalysis(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "ES token filters")
}

// run builds the filters of ES definitions and runs them over whitespace-separated words.
func run(text string, defs ...esanalysis.Def) []string {
	cache := registry.NewCache()
	var stream analysis.TokenStream
	for i, w := range strings.Fields(text) {
		stream = append(stream, &analysis.Token{Term: []byte(w), Position: i + 1})
	}
	for i, d := range defs {
		cfg, err := esanalysis.FilterConfig(d)
		Expect(err).NotTo(HaveOccurred())
		f, err := cache.DefineTokenFilter(string(rune('a'+i)), cfg)
		Expect(err).NotTo(HaveOccurred())
		stream = f.Filter(stream)
	}
	out := []string{}
	for _, t := range stream {
		out = append(out, string(t.Term))
	}
	return out
}

var _ = Describe("Token filters", func() {
	// Lucene's TestTurkishLowerCaseFilter: composed and decomposed dotted capitals.
	It("lowercases Turkish dotted and dotless capitals", func() {
		Expect(run("\u0130STANBUL \u0049\u0307ZM\u0049\u0307R ISPARTA \u0049\u0316\u0307STANBUL I\u0316SPARTA",
			esanalysis.Def{"type": "lowercase", "language": "turkish"})).
			To(Equal([]string{"istanbul", "izmir", "\u0131sparta", "i\u0316stanbul", "\u0131\u0316sparta"}))
	})

	// ES docs, "Elision token filter": articles_case makes the articles case-insensitive;
	// Lucene looks at the first apostrophe only.
	It("strips elided articles before the first apostrophe", func() {
		def := esanalysis.Def{"type": "elision", "articles": []any{"l", "j"}, "articles_case": true}
		Expect(run("l'avion L'avion j'examine d'avion l'l'x", def)).To(Equal([]string{"avion", "avion", "examine", "d'avion", "l'x"}))
		Expect(run("L'avion", esanalysis.Def{"type": "elision", "articles": []any{"l"}})).To(Equal([]string{"L'avion"}))
	})

	// ES docs, "Keyword marker" and "Stemmer override" token filters.
	It("keeps marked and overridden words from the stemmer", func() {
		marker := esanalysis.Def{"type": "keyword_marker", "keywords": []any{"jumping"}}
		override := esanalysis.Def{"type": "stemmer_override", "rules": []any{"running, runs => run", "stemmer => stemmer"}}
		stem := esanalysis.Def{"type": "stemmer", "language": "english"}
		Expect(run("jumping running runs stemmer foxes", marker, override, stem)).To(Equal([]string{"jumping", "run", "run", "stemmer", "fox"}))
	})

	// ES docs, "ASCII folding token filter" with preserve_original.
	It("folds to ASCII, keeping the original after a folded token when asked", func() {
		Expect(run("açaí à la carte", esanalysis.Def{"type": "asciifolding", "preserve_original": true})).
			To(Equal([]string{"acai", "açaí", "a", "à", "la", "carte"}))
	})

	DescribeTable("folds to ASCII as ES does, ASCII words unchanged",
		func(text string, want []string) {
			Expect(run(text, esanalysis.Def{"type": "asciifolding"})).To(Equal(want))
		},
		Entry("ASCII words", "oak desk 42", []string{"oak", "desk", "42"}),
		Entry("accented words", "açaí crème Ærø", []string{"acai", "creme", "AEro"}),
		Entry("ASCII beside accents in a word", "naïve", []string{"naive"}),
	)

	It("takes named stop lists, inside explicit lists too", func() {
		Expect(run("the und foo", esanalysis.Def{"type": "stop", "stopwords": []any{"_german_", "foo"}})).To(Equal([]string{"the"}))
		Expect(run("The AND", esanalysis.Def{"type": "stop", "ignore_case": "true"})).To(BeEmpty())
	})
})

// BenchmarkFold folds a product description's words, most of them ASCII as most
// catalogs' are (analysis runs them at indexing and again when highlighting).
func BenchmarkFold(b *testing.B) {
	words := strings.Fields(strings.Repeat("walnut desk with oak legs crème finish and brass handles ", 12))
	cfg, err := esanalysis.FilterConfig(esanalysis.Def{"type": "asciifolding"})
	if err != nil {
		b.Fatal(err)
	}
	f, err := registry.NewCache().DefineTokenFilter("fold", cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		stream := make(analysis.TokenStream, len(words))
		for i, w := range words {
			stream[i] = &analysis.Token{Term: []byte(w), Position: i + 1}
		}
		f.Filter(stream)
	}
}
