package mapper_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
)

// terms analyzes text with a named analyzer of the index analysis a.
func terms(a *mapper.Analysis, analyzer, text string) []string {
	im, err := mapper.BuildIndexMapping(a)
	Expect(err).NotTo(HaveOccurred())
	an := im.AnalyzerNamed(mapper.BleveAnalyzer(analyzer, a))
	Expect(an).NotTo(BeNil(), analyzer)
	out := []string{}
	for _, t := range an.Analyze([]byte(text)) {
		out = append(out, string(t.Term))
	}
	return out
}

var _ = Describe("Language analyzers", func() {
	// ES's language analyzers are Lucene's <Language>Analyzer classes; the expected terms
	// are those of Lucene's own Test<Language>Analyzer (lucene/analysis/common), for a
	// singular and its plural (or inflected form) and a stop word.
	DescribeTable("analyze as Elasticsearch's analyzer of that name",
		func(analyzer, text string, want []string) {
			Expect(terms(nil, analyzer, text)).To(Equal(want))
		},
		Entry("english: plural, stop word, possessive", "english", "book books the steven's steven’s", []string{"book", "book", "steven", "steven"}),
		Entry("english keeps words outside its 33 stop words", "english", "you me", []string{"you", "me"}),
		Entry("german: plurals, umlaut spellings, stop word", "german", "Tisch Tische Tischen Schaltflächen Schaltflaechen und", []string{"tisch", "tisch", "tisch", "schaltflach", "schaltflach"}),
		Entry("french: stop words, plurals, elision, accents", "french", "le la chien les aux chat du des à cheval éléments captifs voir l'embrouille Votre", []string{"chien", "chat", "cheval", "element", "captif", "voir", "embrouil"}),
		Entry("spanish: gender, stop word", "spanish", "chicana chicano los", []string{"chican", "chican"}),
		Entry("italian: plural, stop word, elision", "italian", "abbandonata abbandonati dallo dell'Italia l'Italiano", []string{"abbandonat", "abbandonat", "ital", "italian"}),
		Entry("dutch: plural, stop word, stem override", "dutch", "lichamelijk lichamen lichten Zelf fiets ophouden", []string{"licham", "licham", "licht", "fiets", "ophoud"}),
		Entry("portuguese: plural, stop word", "portuguese", "quilométricas quilométricos não", []string{"quilometric", "quilometric"}),
		Entry("swedish: plural, stop word", "swedish", "jaktkarlarne jaktkarlens och", []string{"jaktkarl", "jaktkarl"}),
		Entry("danish: inflection, stop word", "danish", "undersøg undersøgelse på", []string{"undersøg", "undersøg"}),
		Entry("norwegian: plural, stop word", "norwegian", "havnedistriktene havnedistrikter det", []string{"havnedistrikt", "havnedistrikt"}),
		Entry("finnish: inflections, stop word", "finnish", "edeltäjiinsä edeltäjistään olla", []string{"edeltäj", "edeltäj"}),
		Entry("turkish: inflection, stop word, apostrophes", "turkish", "ağacı ağaç dolayı Kıbrıs'ta Van Gölü'ne", []string{"ağaç", "ağaç", "kıbrıs", "van", "göl"}),
	)

	// Lucene's Test<Language>Analyzer testExclude: stem_exclusion protects a word.
	It("takes a language analyzer's stopwords and stem_exclusion", func() {
		a, err := mapper.ParseAnalysis(map[string]any{"analyzer": map[string]any{
			"my_sv": map[string]any{"type": "swedish", "stem_exclusion": []any{"jaktkarlarne"}, "stopwords": []any{"jaktkarlens"}},
		}})
		Expect(err).NotTo(HaveOccurred())
		Expect(terms(a, "my_sv", "jaktkarlarne jaktkarlens och")).To(Equal([]string{"jaktkarlarne", "och"}))
	})

	// The product's Polish analyzer: ES has no built-in one, so a custom analyzer lists the
	// stop words itself.
	It("drops the words of a stop filter with an explicit list", func() {
		a, err := mapper.ParseAnalysis(map[string]any{
			"filter":   map[string]any{"pl_stop": map[string]any{"type": "stop", "stopwords": []any{"i", "w", "na"}}},
			"analyzer": map[string]any{"pl": map[string]any{"type": "custom", "tokenizer": "standard", "filter": []any{"lowercase", "pl_stop", "asciifolding"}}},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(terms(a, "pl", "Buty i Skarpety w Łodzi na zimę")).To(Equal([]string{"buty", "skarpety", "lodzi", "zime"}))
	})

	DescribeTable("refuses analysis it cannot build, as ES does",
		func(raw map[string]any, msg string) {
			a, err := mapper.ParseAnalysis(raw)
			Expect(err).NotTo(HaveOccurred())
			if err = mapper.ValidateAnalysis(a); err == nil {
				_, err = mapper.BuildIndexMapping(a)
			}
			Expect(err).To(MatchError(ContainSubstring(msg)))
		},
		Entry("an unknown stop list", map[string]any{"filter": map[string]any{"s": map[string]any{"type": "stop", "stopwords": "_klingon_"}}}, "unsupported stopwords [_klingon_]"),
		Entry("an unknown stemmer", map[string]any{"filter": map[string]any{"s": map[string]any{"type": "stemmer", "language": "klingon"}}}, "unsupported stemmer language [klingon]"),
		Entry("an unknown filter type", map[string]any{"filter": map[string]any{"s": map[string]any{"type": "klingon"}}}, "Unknown filter type [klingon] for [s]"),
		Entry("elision without articles", map[string]any{"filter": map[string]any{"e": map[string]any{"type": "elision"}}}, "elision filter requires [articles]"),
		Entry("an unknown analyzer type", map[string]any{"analyzer": map[string]any{"a": map[string]any{"type": "klingon"}}}, "Unknown analyzer type [klingon] for [a]"),
		Entry("a custom char filter", map[string]any{"char_filter": map[string]any{"c": map[string]any{"type": "html_strip"}}}, "custom char_filter [c] is not supported"),
		Entry("an analyzer's char filter", map[string]any{"analyzer": map[string]any{"a": map[string]any{"tokenizer": "standard", "char_filter": []any{"html_strip"}}}}, "analyzer [a]: char_filter is not supported"),
	)
})
