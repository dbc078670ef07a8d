package apiserver_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// relevanceSettings: the default ranking and matching strategy, no custom ranking, so
// that BM25 breaks the text criteria's ties.
var relevanceSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
}

// relevanceRecords come in groups that one rule separates; each group's objectIDs are
// ordered against the rule, so that a tie broken by objectID would fail its spec.
var relevanceRecords = []string{
	// How telling a word is: "set" is in three names, "bandsaw" in one.
	`{"objectID": "a-socket", "name": "Socket set"}`,
	`{"objectID": "b-tools", "name": "Tool set"}`,
	`{"objectID": "c-knives", "name": "Knife set"}`,
	`{"objectID": "z-bandsaw", "name": "Bandsaw blade"}`,
	// A long query: no record but one holds every word.
	`{"objectID": "h1-two", "name": "Tan sandals for women"}`,
	`{"objectID": "h2-three", "name": "Strappy heels for women"}`,
	`{"objectID": "h3-all", "name": "Tan strappy heels for women"}`,
	// Equal on every criterion: BM25 prefers the shorter name.
	`{"objectID": "tie-a", "name": "Linen apron with two deep pockets and long ties"}`,
	`{"objectID": "tie-b", "name": "Linen apron"}`,
	// A first letter wrong, in a word no record holds.
	`{"objectID": "cook", "name": "Cook book"}`,
	`{"objectID": "dragon", "name": "Dragon tales book"}`,
	// A finished word that starts a longer one.
	`{"objectID": "a-stainless", "name": "Stainless steel frying pan"}`,
	`{"objectID": "b-stain", "name": "Stain remover for steel pans"}`,
	// Negation.
	`{"objectID": "n1-holds", "name": "Dinnerware set with mugs"}`,
	`{"objectID": "n2-lacks", "name": "Dinnerware set with plates and bowls"}`,
	`{"objectID": "n3-says", "name": "Dinnerware set, no mugs"}`,
}

var _ = Describe("Relevance on shopper queries (issue 34)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() { ci = rankedIndex("relevance", relevanceSettings, relevanceRecords...) })

	It("ranks a record holding the query's rare word above records holding only its common one", func() {
		res := searchIn(ci, `{"q": "bandsaw set "}`)
		Expect(res.ids()[0]).To(Equal("z-bandsaw"))
		Expect(res.ids()).To(ContainElements("a-socket", "b-tools", "c-knives"), "any word matches")
	})

	It("answers a long query with the records matching most of its words, every word first, and says what each misses", func() {
		res := searchIn(ci, `{"q": "tan strappy heels for women ", "explain": true}`)
		Expect(res.ids()).To(Equal([]string{"h3-all", "h2-three", "h1-two"}))
		Expect(res.Hits[0].Ranking).NotTo(HaveKey("missingWords"))
		Expect(res.Hits[1].Ranking).To(HaveKeyWithValue("missingWords", []any{"tan"}))
		Expect(res.Hits[2].Ranking).To(HaveKeyWithValue("missingWords", []any{"strappy", "heels"}))
		Expect(searchIn(ci, `{"q": "tan strappy heels for women ", "matchingStrategy": "all"}`).ids()).To(Equal([]string{"h3-all"}))
	})

	It("ignores a word no record holds, and names it", func() {
		res := searchIn(ci, `{"q": "linen apron unicornium "}`)
		Expect(res.IgnoredWords).To(Equal([]string{"unicornium"}))
		Expect(res.ids()).To(Equal([]string{"tie-b", "tie-a"}))
	})

	It("breaks the ties of the last criterion by how well the text matches, not by objectID", func() {
		res := searchIn(ci, `{"q": "linen apron ", "explain": true}`)
		Expect(res.ids()).To(Equal([]string{"tie-b", "tie-a"}))
		Expect(res.Hits[0].Ranking).To(Equal(res.Hits[1].Ranking), "tied on every criterion")
	})

	It("matches a word no record holds with its first letter wrong, as two typos, from five letters", func() {
		res := searchIn(ci, `{"q": "fragon book ", "explain": true}`)
		Expect(res.ids()).To(Equal([]string{"dragon", "cook"}))
		Expect(res.Hits[0].Ranking).To(HaveKeyWithValue("typo", 2.0))
		Expect(searchIn(ci, `{"q": "zook "}`).ids()).To(BeEmpty(), "four letters: no")
	})

	It("matches a finished word as the start of a longer one, below records holding it whole", func() {
		res := searchIn(ci, `{"q": "stain steel pan "}`)
		Expect(res.ids()[:2]).To(Equal([]string{"b-stain", "a-stainless"}))
	})

	It("understands without: a record saying it lacks the word first, then one not holding it, then one holding it", func() {
		res := searchIn(ci, `{"q": "dinnerware set without mugs "}`)
		Expect(res.ids()[:3]).To(Equal([]string{"n3-says", "n2-lacks", "n1-holds"}))
		Expect(res.IgnoredWords).To(BeEmpty(), "understood, not ignored")
	})

	// Last: it adds a record. A replica keeps the words' frequencies for a minute, and a
	// word it counted in no record must not stay ignored once a record holding it is
	// acknowledged.
	It("finds a word no record held on every replica as soon as a write holding it is acknowledged", func() {
		for i := 0; i < 2; i++ {
			r := call(i, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "quokka plush"}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(`"ignoredWords":["quokka","plush"]`), "the fixture: no record holds either word")
		}
		w := call(0, http.MethodPost, ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{{"objectID": "quokka", "name": "Quokka plush"}}))
		Expect(w.status).To(Equal(http.StatusAccepted), string(w.body))
		for i := 0; i < 2; i++ {
			r := call(i, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "quokka plush"}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var res rankedResult
			Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			Expect(res.ids()).To(Equal([]string{"quokka"}), "replica %d", i)
			Expect(res.IgnoredWords).To(BeEmpty(), "replica %d", i)
		}
	})
})

var _ = Describe("A custom ranking field's first values (issue 34)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		settings := searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
			CustomRanking:    []searchv1alpha1.RankingRule{{Field: "zest", Order: "desc"}},
		}
		ci = rankedIndex("firstvalues", settings,
			`{"objectID": "a-mild", "name": "Pepper sauce"}`, `{"objectID": "b-hot", "name": "Pepper sauce"}`)
	})

	// A replica keeps an index's mapping for a few seconds; a field it did not map yet
	// must not be left out of the ranking once a write giving it values is acknowledged.
	It("ranks by a field on every replica as soon as the write giving it its first values is acknowledged", func() {
		for i := 0; i < 2; i++ {
			r := call(i, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "pepper sauce", "explain": true}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(string(r.body)).To(ContainSubstring(`"custom":{}`), "the fixture: no record holds zest yet")
		}
		w := call(0, http.MethodPost, ci.base+"/records", ci.writeKey, recordsBody([]map[string]any{
			{"objectID": "a-mild", "name": "Pepper sauce", "zest": 1}, {"objectID": "b-hot", "name": "Pepper sauce", "zest": 9}}))
		Expect(w.status).To(Equal(http.StatusAccepted), string(w.body))
		for i := 0; i < 2; i++ {
			r := call(i, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(`{"q": "pepper sauce", "explain": true}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var res rankedResult
			Expect(json.Unmarshal(r.body, &res)).To(Succeed())
			Expect(res.ids()).To(Equal([]string{"b-hot", "a-mild"}), "replica %d", i)
			Expect(res.Hits[0].Ranking).To(HaveKeyWithValue("custom", HaveKeyWithValue("zest", 9.0)), "replica %d", i)
		}
	})
})
