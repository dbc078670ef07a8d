package apiserver_test

import (
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

var _ = Describe("Ranking criteria (issue 21)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() { ci = rankedIndex("rank-criteria", criteriaSettings, criteriaRecords...) })

	DescribeTable("each decides between two records the criteria before it leave tied, over custom ranking",
		func(body string, want ...string) {
			Expect(searchIn(ci, body).ids()).To(Equal(want))
		},
		Entry("sort: the request's sort keys before every text criterion", `{"q": "wool socks ", "sort": [{"field": "price"}]}`, "p2", "p1"),
		Entry("words: more query words matched first", `{"q": "walnut desk lamp", "matchingStrategy": "any"}`, "w1", "w2"),
		Entry("typo: fewer typos first", `{"q": "ceramik "}`, "t1", "t2"),
		Entry("proximity: the words side by side first", `{"q": "wool socks "}`, "p1", "p2"),
		Entry("attribute: a match in the heavier field first", `{"q": "cedar "}`, "a1", "a2"),
		Entry("exact: a whole word before a prefix", `{"q": "pot"}`, "e1", "e2"),
		Entry("custom: records the text matches equally well by custom ranking, however long their names",
			`{"q": "smartphone"}`, "iphone", "budget"),
	)

	// A pair of query words scores 3 side by side in a field, 2 within two position moves
	// (a phrase slop of 2), 1 within eight, 0 farther apart or in different fields.
	DescribeTable("proximity: of two records, the one with the words closer together first, tier by tier",
		func(q, first string, firstLevel float64, second string, secondLevel float64) {
			res := searchIn(ci, `{"q": "`+q+`", "explain": true}`)
			Expect(res.ids()).To(Equal([]string{first, second}))
			Expect(res.Hits[0].Ranking).To(HaveKeyWithValue("proximity", firstLevel))
			Expect(res.Hits[1].Ranking).To(HaveKeyWithValue("proximity", secondLevel))
		},
		Entry("side by side before two apart", "linen shirt ", "linen3", 3.0, "linen2", 2.0),
		Entry("two apart before six apart", "silk scarf ", "silk2", 2.0, "silk1", 1.0),
		Entry("six apart in one field before in different fields, over the heavier field", "cotton towel ", "towel1", 1.0, "towel0", 0.0),
	)

	It("explains each hit's place with the level of each criterion", func() {
		res := searchIn(ci, `{"q": "wool socks ", "explain": true}`)
		Expect(res.ids()).To(Equal([]string{"p1", "p2"}))
		Expect(res.Hits[0].Ranking).To(Equal(map[string]any{"words": 2.0, "typo": 0.0, "proximity": 3.0, "attribute": 2.0, "exact": 2.0,
			"custom": map[string]any{"popularity": 4.0}}))
		Expect(res.Hits[1].Ranking).To(HaveKeyWithValue("proximity", 2.0), "a word between them")
		Expect(searchIn(ci, `{"q": "ceramik ", "explain": true}`).Hits[1].Ranking).To(HaveKeyWithValue("typo", 1.0))
	})

	DescribeTable("needs the query words the matching strategy says, and names the words a search ignored",
		func(strategy string, ids []string, ignored []string) {
			res := searchIn(ci, `{"q": "walnut desk unicornium", "matchingStrategy": "`+strategy+`", "facets": ["brand"]}`)
			Expect(res.ids()).To(Equal(ids))
			Expect(res.IgnoredWords).To(Equal(ignored))
			Expect(res.Total).To(BeEquivalentTo(len(ids)), "the total counts the hits returned")
			Expect(res.Facets["brand"]).To(ConsistOf(map[string]any{"value": "Oakly", "count": float64(len(ids))}))
		},
		Entry("all: nothing matches every word, so the last word is dropped", "all", []string{"w1"}, []string{"unicornium"}),
		Entry("last: the first word, longer runs of the first words first", "last", []string{"w1", "w2"}, []string{}),
		Entry("any: any word, more words first", "any", []string{"w1", "w2"}, []string{}),
	)

	It("matches the last word, still being typed, as a prefix in any field", func() {
		res := searchIn(ci, `{"q": "northpeak moun"}`)
		Expect(res.ids()).To(Equal([]string{"n1"}))
		Expect(res.Hits[0].Highlights).To(Equal(map[string]any{"name": "<em>Mountain</em> shoe", "description": "By <em>Northpeak</em>"}))
		complete := searchIn(ci, `{"q": "northpeak moun ", "explain": true}`)
		Expect(complete.ids()).To(Equal([]string{"n1"}), "a complete word still matches the start of a longer one")
		Expect(complete.Hits[0].Ranking).To(HaveKeyWithValue("exact", 1.0), "as a prefix, not a whole word")
		Expect(complete.Hits[0].Ranking).To(HaveKeyWithValue("typo", 1.0), "ranked as one typo, below whole words")
	})

	It("cuts a snippet around the best match, typos included, HTML-escaped", func() {
		res := searchIn(ci, `{"q": "gripy sole", "snippets": [{"field": "description", "words": 6}]}`)
		Expect(res.ids()[0]).To(Equal("d1"), "the only record holding both words")
		Expect(res.Hits[0].Snippets["description"]).To(Equal("…with a <em>grippy</em> <em>sole</em> and a…"))
		Expect(res.Hits[0].Highlights["description"]).To(ContainSubstring("<em>grippy</em> <em>sole</em>"))
	})
})

var _ = Describe("Custom ranking moved before proximity (issue 21)", func() {
	It("decides before the criteria after it, by ranges of its values", func() {
		s := criteriaSettings
		s.Ranking = []searchv1alpha1.RankingCriterion{"sort", "words", "typo", "custom", "proximity", "attribute", "exact"}
		ci := rankedIndex("rank-custom-first", s, criteriaRecords...)
		res := searchIn(ci, `{"q": "wool socks ", "explain": true}`)
		Expect(res.ids()).To(Equal([]string{"p2", "p1"}))
		Expect(res.Hits[0].Ranking["customLevel"]).To(BeNumerically(">", res.Hits[1].Ranking["customLevel"]))
	})
})

var _ = Describe("Typo tolerance (issue 21)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() { ci = rankedIndex("rank-typos", typoSettings, typoRecords...) })

	DescribeTable("allows typos by word length, never on digits, a first letter as two, a transposition as one",
		func(q string, ids ...string) {
			Expect(searchIn(ci, `{"q": "`+q+`"}`).ids()).To(ConsistOf(ids))
		},
		Entry("3 letters: none (tee does not find Toe)", "tee "),
		Entry("4 letters: one", "boat ", "boot"),
		Entry("7 letters: one", "blankit ", "blanket"),
		Entry("7 letters: not two", "blonkit "),
		Entry("8 letters: two", "nitebouk ", "notebook"),
		Entry("digits: none (4070 does not find 4060)", "4070 "),
		Entry("a first letter counts as two: from 8 letters", "kontroller ", "controller"),
		Entry("a first letter counts as two: not below", "bamp "),
		Entry("a transposition counts as one", "sheos ", "shoes"),
		Entry("a field without typos", "kaltenbreg "),
		Entry("the same word without a typo on that field", "kaltenberg ", "mug"),
		Entry("a word without typos", "lamb "),
		Entry("the word it would have found", "lamp ", "lamp"),
	)

	It("highlights a transposed word and counts it as one typo", func() {
		res := searchIn(ci, `{"q": "sheos ", "explain": true}`)
		Expect(res.Hits[0].Highlights).To(Equal(map[string]any{"name": "<em>Shoes</em>"}))
		Expect(res.Hits[0].Ranking).To(HaveKeyWithValue("typo", 1.0))
	})
})

var _ = Describe("Synonyms (issue 21)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() { ci = rankedIndex("rank-synonyms", synonymSettings, synonymRecords...) })

	It("are applied by the next search, with no rebuild", func() {
		Expect(searchIn(ci, `{"q": "phone ", "typoTolerance": false}`).ids()).To(Equal([]string{"s3"}))
		r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, map[string]any{
			"searchableFields": synonymSettings.SearchableFields,
			"synonyms": []map[string]any{
				{"type": "oneWay", "input": "phone", "synonyms": []string{"smartphone", "mobile"}},
				{"terms": []string{"tv", "television set"}},
				{"type": "altCorrection", "word": "adeedas", "corrections": []string{"adidas"}, "typos": 1},
			}})
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Expect(string(r.body)).To(And(ContainSubstring(`"applied":["synonyms"]`), ContainSubstring(`"rebuilt":[]`), ContainSubstring(`"rebuild":null`)))
		// The replica reads the settings from its informer, which follows the write.
		Eventually(func() []string {
			return searchIn(ci, `{"q": "phone ", "typoTolerance": false}`).ids()
		}).Should(ConsistOf("s1", "s2", "s3"))
	})

	DescribeTable("of each type find what they say",
		func(q string, ids ...string) {
			Expect(searchIn(ci, `{"q": "`+q+`"}`).ids()).To(ConsistOf(ids))
		},
		Entry("oneWay: the input finds the synonyms", "phone ", "s1", "s2", "s3"),
		Entry("oneWay: not the reverse", "smartphone ", "s1"),
		Entry("multiWay: a word finds a phrase", "tv ", "s4", "s6"),
		Entry("multiWay: a phrase finds a word", "television set ", "s4", "s6"),
		// Two edits from "adidas": no typo rule finds it.
		Entry("altCorrection: the word finds the correction", "adeedas ", "s5"),
	)

	It("rank an altCorrection as its typos, and highlight synonyms and snippets of them", func() {
		Expect(searchIn(ci, `{"q": "adeedas ", "explain": true}`).Hits[0].Ranking).To(HaveKeyWithValue("typo", 1.0))
		res := searchIn(ci, `{"q": "tv ", "snippets": [{"field": "description", "words": 4}]}`)
		Expect(res.ids()).To(ConsistOf("s4", "s6"))
		for _, h := range res.Hits {
			if h.ObjectID == "s4" {
				Expect(h.Highlights["name"]).To(HavePrefix("<em>Television"))
				Expect(h.Snippets["description"]).To(And(HavePrefix("A <em>television"), HaveSuffix("…")))
			}
		}
	})
})

var _ = Describe("Languages (issue 21)", func() {
	DescribeTable("stem plurals and drop stop words as Elasticsearch's analyzer of the language",
		func(lang searchv1alpha1.Language, name, q string, typos bool) {
			ci := rankedIndex("rank-lang-"+string(lang), searchv1alpha1.IndexSettings{Language: lang,
				SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}}, `{"objectID": "x", "name": "`+name+`"}`)
			body := `{"q": "` + q + `", "typoTolerance": false}`
			if typos {
				body = `{"q": "` + q + `"}`
			}
			Expect(searchIn(ci, body).ids()).To(Equal([]string{"x"}))
		},
		Entry("en", searchv1alpha1.LanguageEnglish, "Shoe", "the shoes ", false),
		Entry("de", searchv1alpha1.LanguageGerman, "Tisch", "und Tische ", false),
		Entry("fr", searchv1alpha1.LanguageFrench, "Oiseau captif", "des captifs ", false),
		Entry("es", searchv1alpha1.LanguageSpanish, "Zapato rojo", "los zapatos ", false),
		Entry("it", searchv1alpha1.LanguageItalian, "Scarpa", "di scarpe ", false),
		Entry("nl", searchv1alpha1.LanguageDutch, "Fiets", "de fietsen ", false),
		Entry("pt", searchv1alpha1.LanguagePortuguese, "Sapato", "os sapatos ", false),
		Entry("sv", searchv1alpha1.LanguageSwedish, "Bil", "och bilar ", false),
		Entry("da", searchv1alpha1.LanguageDanish, "Bil", "og biler ", false),
		Entry("no", searchv1alpha1.LanguageNorwegian, "Bil", "og biler ", false),
		Entry("fi", searchv1alpha1.LanguageFinnish, "Talo", "ja talot ", false),
		Entry("tr", searchv1alpha1.LanguageTurkish, "Kitap", "ve kitaplar ", false),
		// Elasticsearch has no Polish stemmer without a plugin: a plural is found as a typo.
		Entry("pl", searchv1alpha1.LanguagePolish, "Skarpeta", "i skarpety ", true),
	)
})
