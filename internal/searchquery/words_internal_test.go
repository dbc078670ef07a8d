package searchquery

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

var english = relevance.StopsOf(searchv1alpha1.IndexSettings{})

func keptOf(qw queryWords) []string { return wordsOf(qw.kept) }

var _ = Describe("Query words", func() {
	DescribeTable("are cut as the standard tokenizer cuts them",
		func(q string, want ...string) {
			Expect(splitWords(q)).To(HaveExactElements(want))
		},
		Entry("spaces and punctuation", "red, shoes!", "red", "shoes"),
		Entry("a hyphen splits", "t-shirt", "t", "shirt"),
		Entry("an apostrophe between letters joins", "l'eau d’été", "l'eau", "d’été"),
		Entry("a decimal between digits joins", "3.5 inch, 2,5 cm", "3.5", "inch", "2,5", "cm"),
		Entry("accents and marks stay in the word", "Crème brûlée", "Crème", "brûlée"),
		Entry("nothing but punctuation", "!!! ..."),
	)

	DescribeTable("drop stop words, keep ten, and know the word still being typed",
		func(q string, drop int, kept, ignored []string, prefix bool) {
			qw := parseWords(q, english, relevance.Negations{}, drop)
			Expect(keptOf(qw)).To(Equal(kept))
			Expect(qw.ignored).To(Equal(ignored))
			Expect(qw.kept[len(qw.kept)-1].prefix).To(Equal(prefix))
		},
		Entry("the last word is a prefix", "red sho", 0, []string{"red", "sho"}, []string(nil), true),
		Entry("not after a space", "red shoe ", 0, []string{"red", "shoe"}, []string(nil), false),
		Entry("stop words dropped", "the shoes of the year", 0, []string{"shoes", "year"}, []string(nil), true),
		Entry("a query of stop words only keeps them", "to be or not", 0, []string{"to", "be", "or", "not"}, []string(nil), true),
		Entry("a stop word at the end is dropped, and the word before is complete", "shoes for", 0, []string{"shoes"}, []string(nil), false),
		Entry("words beyond the tenth ignored", "a1 b2 c3 d4 e5 f6 g7 h8 i9 j10 k11 l12", 0,
			[]string{"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "j10"}, []string{"k11", "l12"}, false),
		Entry("words dropped from the end for a retry", "walnut desk unicornium", 1, []string{"walnut", "desk"}, []string{"unicornium"}, false),
		Entry("never the last word left", "walnut desk", 5, []string{"walnut"}, []string{"desk"}, false),
	)

	It("match a stop word the analyzer drops on the words subfield", func() {
		qw := parseWords("to be", english, relevance.Negations{}, 0)
		Expect(qw.kept[0].analyzerStop).To(BeTrue())
		Expect(parseWords("shoes", english, relevance.Negations{}, 0).kept[0].analyzerStop).To(BeFalse())
	})

	It("use the index's own stop words, added to the language's or replacing them", func() {
		added := relevance.StopsOf(searchv1alpha1.IndexSettings{StopWords: &searchv1alpha1.StopWords{Words: []string{"Cheap"}}})
		Expect(keptOf(parseWords("cheap shoes for the beach", added, relevance.Negations{}, 0))).To(Equal([]string{"shoes", "beach"}))
		replaced := relevance.StopsOf(searchv1alpha1.IndexSettings{StopWords: &searchv1alpha1.StopWords{Words: []string{"cheap"}, Replace: true}})
		Expect(keptOf(parseWords("cheap shoes for the beach", replaced, relevance.Negations{}, 0))).To(Equal([]string{"shoes", "for", "the", "beach"}))
		off := relevance.StopsOf(searchv1alpha1.IndexSettings{StopWords: &searchv1alpha1.StopWords{Enabled: ptr(false), Words: []string{"cheap"}}})
		Expect(keptOf(parseWords("cheap shoes for the beach", off, relevance.Negations{}, 0))).To(Equal([]string{"cheap", "shoes", "for", "the", "beach"}))
	})

	It("give the phrase of two kept words with the stop words between them", func() {
		qw := parseWords("pen of steel", english, relevance.Negations{}, 0)
		Expect(qw.phrase(0)).To(Equal("pen of steel"))
	})
})

var _ = DescribeTable("Typo rules allow typos by word length, never on digits or listed words",
	func(t *searchv1alpha1.TypoTolerance, request *bool, word string, want int) {
		r := typoRulesOf(searchv1alpha1.IndexSettings{TypoTolerance: t}, request)
		Expect(r.allowed(qword{fold: relevance.Fold(word)})).To(Equal(want))
	},
	Entry("3 letters: none", nil, nil, "tee", 0),
	Entry("4 letters: one", nil, nil, "shoe", 1),
	Entry("7 letters: one", nil, nil, "sneaker", 1),
	Entry("8 letters: two", nil, nil, "sneakers", 2),
	Entry("accents count as letters", nil, nil, "café", 1),
	Entry("digits: none", nil, nil, "4070", 0),
	Entry("digits with onNumbers", &searchv1alpha1.TypoTolerance{OnNumbers: true}, nil, "4070", 1),
	Entry("a model number with letters", nil, nil, "rtx4070", 1),
	Entry("a listed word, any case", &searchv1alpha1.TypoTolerance{DisableOnWords: []string{"Samsung"}}, nil, "samsung", 0),
	Entry("other sizes", &searchv1alpha1.TypoTolerance{MinWordSizeFor1Typo: 3, MinWordSizeFor2Typos: 5}, nil, "shoes", 2),
	Entry("off in the settings", &searchv1alpha1.TypoTolerance{Enabled: ptr(false)}, nil, "sneakers", 0),
	Entry("off in the request", nil, ptr(false), "sneakers", 0),
)

var _ = Describe("Synonym units", func() {
	group := func(gs ...searchv1alpha1.SynonymGroup) map[string][]rule { return synonymRules(gs, english) }
	unitsOf := func(q string, rules map[string][]rule) []unit {
		return units(parseWords(q, english, relevance.Negations{}, 0).kept, rules)
	}

	It("give a word of a multiWay group the other terms, phrases included", func() {
		u := unitsOf("tv stand", group(searchv1alpha1.SynonymGroup{Terms: []string{"TV", "television set"}}))
		Expect(u).To(HaveLen(2))
		Expect(u[0].alts).To(Equal([]alt{{text: "television set", words: 2}}))
		Expect(u[1].alts).To(BeEmpty())
	})

	It("group the words of a multi-word term into one unit", func() {
		u := unitsOf("television set stand", group(searchv1alpha1.SynonymGroup{Terms: []string{"tv", "television set"}}))
		Expect(u).To(HaveLen(2))
		Expect(u[0]).To(Equal(unit{first: 0, last: 1, alts: []alt{{text: "tv", words: 1}}}))
	})

	It("prefer the longest input, and gather the alternatives of every entry with that input", func() {
		rules := group(searchv1alpha1.SynonymGroup{Terms: []string{"phone", "mobile"}},
			searchv1alpha1.SynonymGroup{Type: "oneWay", Input: "phone case", Synonyms: []string{"cover"}},
			searchv1alpha1.SynonymGroup{Type: "oneWay", Input: "phone case", Synonyms: []string{"shell", "cover"}})
		u := unitsOf("phone case", rules)
		Expect(u).To(Equal([]unit{{first: 0, last: 1, alts: []alt{{text: "cover", words: 1}, {text: "shell", words: 1}}}}))
	})

	It("apply a oneWay entry from its input only", func() {
		rules := group(searchv1alpha1.SynonymGroup{Type: "oneWay", Input: "phone", Synonyms: []string{"smartphone", "mobile"}})
		Expect(unitsOf("phone", rules)[0].alts).To(HaveLen(2))
		Expect(unitsOf("smartphone", rules)[0].alts).To(BeEmpty())
	})

	It("rank an altCorrection as its typos", func() {
		rules := group(searchv1alpha1.SynonymGroup{Type: "altCorrection", Word: "addidas", Corrections: []string{"adidas"}, Typos: 2},
			searchv1alpha1.SynonymGroup{Type: "altCorrection", Word: "nikey", Corrections: []string{"nike"}})
		Expect(unitsOf("addidas", rules)[0].alts).To(Equal([]alt{{text: "adidas", words: 1, typos: 2}}))
		Expect(unitsOf("Nikey", rules)[0].alts).To(Equal([]alt{{text: "nike", words: 1, typos: 1}}))
	})

	It("compare inputs as the query's words: folded, without stop words", func() {
		rules := group(searchv1alpha1.SynonymGroup{Terms: []string{"Crème of the crop", "best"}})
		Expect(unitsOf("creme crop", rules)[0]).To(Equal(unit{first: 0, last: 1, alts: []alt{{text: "best", words: 1}}}))
	})
})

func ptr[T any](v T) *T { return &v }
