package searchquery_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// rankedSettings: one field per weight and every criterion, so that every band exists.
var rankedSettings = searchv1alpha1.IndexSettings{
	Ranking:          []searchv1alpha1.RankingCriterion{"sort", "words", "typo", "proximity", "attribute", "exact", "custom"},
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 2}, {Path: "description", Weight: 1}},
	SortableFields:   []searchv1alpha1.FieldPath{"price"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: "desc"}},
	Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television set"}},
		{Type: "altCorrection", Word: "addidas", Corrections: []string{"adidas"}, Typos: 1}},
}

func withRanking(s searchv1alpha1.IndexSettings, ranking ...searchv1alpha1.RankingCriterion) searchv1alpha1.IndexSettings {
	s.Ranking = ranking
	return s
}

func planOf(body string, s searchv1alpha1.IndexSettings, in searchquery.Inputs) (searchquery.Plan, map[string]any) {
	plan, err := searchquery.BuildWith(decode(body), searchquery.KeyedAccess(s), schema, in)
	Expect(err).NotTo(HaveOccurred())
	var m map[string]any
	Expect(json.Unmarshal(plan.Bodies.Search, &m)).To(Succeed())
	return plan, m
}

// textQuery is the ranking's query inside the body's bool.
func textQuery(m map[string]any) map[string]any {
	return m["query"].(map[string]any)["bool"].(map[string]any)["must"].([]any)[0].(map[string]any)["bool"].(map[string]any)
}

var _ = Describe("The ranking's query", func() {
	DescribeTable("needs the words the matching strategy says",
		func(strategy string, must, should int) {
			_, m := planOf(`{"q": "walnut desk lamp", "matchingStrategy": "`+strategy+`"}`, rankedSettings, searchquery.Inputs{})
			b := textQuery(m)
			Expect(b["must"]).To(HaveLen(must))
			Expect(b["should"]).To(HaveLen(should))
		},
		// Three words, two pairs of proximity.
		Entry("all: each word a must", "all", 3, 2),
		Entry("any: one should of the words", "any", 1, 2),
		// The first word, the other two, two run clauses, two proximity clauses.
		Entry("last: the first word, the others ranked by the run matched", "last", 1, 6),
	)

	It("matches a synonym's phrase and an altCorrection as variants of the word", func() {
		_, m := planOf(`{"q": "tv addidas"}`, rankedSettings, searchquery.Inputs{})
		body := toJSON(m["query"])
		Expect(body).To(ContainSubstring(`{"match_phrase":{"name":{"query":"television set"}}}`))
		Expect(body).To(ContainSubstring(`{"match":{"description":{"operator":"and","query":"adidas"}}}`))
	})

	It("puts custom ranking after the score, exactly, and objectID last", func() {
		_, m := planOf(`{"q": "shoe"}`, rankedSettings, searchquery.Inputs{})
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"_score": {"order": "desc"}}, {"popularity": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
		Expect(searchquery.StatsFields(decode(`{"q": "shoe"}`), searchquery.KeyedAccess(rankedSettings), schema)).To(BeEmpty())
	})

	It("cuts custom ranking moved before proximity into ranges of its values, and keeps its exact values after the score", func() {
		s := withRanking(rankedSettings, "sort", "words", "typo", "custom", "proximity", "attribute", "exact")
		req := decode(`{"q": "red shoe"}`)
		Expect(searchquery.StatsFields(req, searchquery.KeyedAccess(s), schema)).To(Equal([]string{"popularity"}))
		plan, m := planOf(`{"q": "red shoe", "explain": true, "matchingStrategy": "all"}`, s, searchquery.Inputs{Stats: searchquery.FieldStats{"popularity": {Min: 0, Max: 100}}})
		should := toJSON(textQuery(m)["should"])
		Expect(should).To(ContainSubstring(`{"range":{"popularity":{"gte":50}}}`))
		Expect(strings.Count(should, `"popularity"`)).To(BeNumerically(">", 2))
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"_score": {"order": "desc"}}, {"popularity": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
		Expect(plan.Shaping.Retry).To(BeTrue())
	})

	It("leaves a moved criterion exact only when its field has no range of values", func() {
		s := withRanking(rankedSettings, "custom", "words", "typo", "proximity", "attribute", "exact")
		_, m := planOf(`{"q": "red shoe"}`, s, searchquery.Inputs{})
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"popularity": {"order": "desc"}}, {"_score": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
		s = withRanking(rankedSettings, "words", "custom", "exact")
		_, m = planOf(`{"q": "red shoe"}`, s, searchquery.Inputs{Stats: searchquery.FieldStats{"popularity": {Min: 3, Max: 3}}})
		Expect(toJSON(textQuery(m)["should"])).NotTo(ContainSubstring("range"))
	})

	It("sorts by the request's keys after the score when sort is moved, ranging them in the score", func() {
		s := withRanking(rankedSettings, "words", "sort", "typo", "proximity", "attribute", "exact", "custom")
		req := `{"q": "red shoe", "sort": [{"field": "price"}]}`
		Expect(searchquery.StatsFields(decode(req), searchquery.KeyedAccess(s), schema)).To(Equal([]string{"price"}))
		_, m := planOf(req, s, searchquery.Inputs{Stats: searchquery.FieldStats{"price": {Min: 0, Max: 10}}})
		Expect(toJSON(textQuery(m)["should"])).To(ContainSubstring(`{"range":{"price":{"lt":5}}}`))
		Expect(toJSON(m["sort"])).To(MatchJSON(`[{"_score": {"order": "desc"}}, {"price": {"order": "asc"}},
			{"popularity": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
	})

	It("asks Elasticsearch to highlight the returned searchable fields with their words subfields' marks", func() {
		_, m := planOf(`{"q": "shoe", "fields": ["name"], "snippets": [{"field": "description", "words": 5}]}`, rankedSettings, searchquery.Inputs{})
		Expect(toJSON(m["highlight"])).To(MatchJSON(`{"number_of_fragments": 0, "encoder": "html", "pre_tags": ["<em>"], "post_tags": ["</em>"],
			"fields": {"name": {"matched_fields": ["name", "name.words"]},
				"description": {"matched_fields": ["description", "description.words"], "no_match_size": 120}}}`))
		_, m = planOf(`{"q": "shoe", "highlight": false}`, rankedSettings, searchquery.Inputs{})
		Expect(m).NotTo(HaveKey("highlight"))
	})

	It("matches typos and prefixes on the field itself while the index has no words subfield yet (until its rebuild)", func() {
		old := searchquery.Schema{"name": {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"}}
		one := searchquery.KeyedAccess(searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
		plan, err := searchquery.Build(decode(`{"q": "shoe"}`), one, old)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(plan.Bodies.Search)).NotTo(ContainSubstring("name.words"))
		Expect(string(plan.Bodies.Search)).To(And(ContainSubstring(`{"match_bool_prefix":{"name":`), ContainSubstring(`"highlight":{"encoder":"html","fields":{"name":{}}`)))
	})

	DescribeTable("highlights the fields a hit returns",
		func(body string, r searchquery.Access, want string) {
			plan, err := searchquery.Build(decode(body), r, schema)
			Expect(err).NotTo(HaveOccurred())
			var m map[string]any
			Expect(json.Unmarshal(plan.Bodies.Search, &m)).To(Succeed())
			Expect(toJSON(m["highlight"].(map[string]any)["fields"])).To(MatchJSON(want))
		},
		Entry("a browser's, when the policy returns every field", `{"q": "shoe"}`, searchquery.PublicAccess(rankedSettings, searchv1alpha1.PublicSearchPolicy{}),
			`{"name": {"matched_fields": ["name", "name.words"]}, "description": {"matched_fields": ["description", "description.words"]}}`),
		Entry("a browser's, only the retrievable ones", `{"q": "shoe"}`,
			searchquery.PublicAccess(rankedSettings, searchv1alpha1.PublicSearchPolicy{RetrievableFields: []searchv1alpha1.FieldPath{"name"}}),
			`{"name": {"matched_fields": ["name", "name.words"]}}`),
		Entry("every field, when none is searchable", `{"q": "shoe"}`, searchquery.KeyedAccess(searchv1alpha1.IndexSettings{}), `{"*": {}}`),
		Entry("the fields asked for, when none is searchable", `{"q": "shoe", "fields": ["brand"]}`, searchquery.KeyedAccess(searchv1alpha1.IndexSettings{}), `{"brand": {}}`),
	)
})

var _ = Describe("The answer of a ranked search", func() {
	It("explains each hit's rank from its score, with the custom values", func() {
		plan, _ := planOf(`{"q": "red shoe", "explain": true, "matchingStrategy": "all"}`, rankedSettings, searchquery.Inputs{})
		// Bands of two words, two ranks, all: typo 5 (base 36), proximity 4 (9),
		// attribute 3 (3), exact 3 (1). Typo 3 (one typo), proximity 3 (side by side),
		// attribute 1, exact 1.
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"hits": {"total": {"value": 1}, "hits": [
			{"_id": "a", "_source": {"objectID": "a"}, "sort": [139.0, 98, "a"]}]}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(toJSON(res.Hits[0].Ranking)).To(MatchJSON(`{"words": 2, "typo": 1, "proximity": 3, "attribute": 1, "exact": 1,
			"custom": {"popularity": 98}}`))
	})

	It("marks each value of a field holding several where Elasticsearch marked it, and cuts snippets", func() {
		plan, _ := planOf(`{"q": "red", "snippets": [{"field": "description", "words": 4}]}`,
			searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "tags"}, {Path: "description"}}}, searchquery.Inputs{})
		res, err := searchquery.Shape(plan.Shaping, []byte(`{"hits": {"total": {"value": 1}, "hits": [{"_id": "a",
			"_source": {"objectID": "a", "tags": ["blue", "red & co", "dark red"], "description": "A very light shoe for red roads and long runs"},
			"highlight": {"tags": ["<em>red</em> &amp; co", "dark <em>red</em>"],
				"description": ["A very light shoe for <em>red</em> roads and long runs"]}}]}}`))
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Hits[0].Highlights).To(Equal(map[string]any{
			"tags":        []string{"blue", "<em>red</em> &amp; co", "dark <em>red</em>"},
			"description": "A very light shoe for <em>red</em> roads and long runs",
		}))
		Expect(res.Hits[0].Snippets).To(Equal(map[string]string{"description": "…for <em>red</em> roads and…"}))
	})

	DescribeTable("cuts snippets around the first match, keeping marks balanced",
		func(highlighted string, words int, want string) {
			plan, _ := planOf(`{"q": "x", "snippets": [{"field": "description", "words": `+itoa(words)+`}]}`, rankedSettings, searchquery.Inputs{})
			raw, _ := json.Marshal(map[string]any{"hits": map[string]any{"total": map[string]any{"value": 1}, "hits": []any{
				map[string]any{"_id": "a", "_source": map[string]any{"objectID": "a"}, "highlight": map[string]any{"description": []string{highlighted}}}}}})
			res, err := searchquery.Shape(plan.Shaping, raw)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Hits[0].Snippets["description"]).To(Equal(want))
		},
		Entry("short text whole", "a <em>b</em> c", 10, "a <em>b</em> c"),
		Entry("the beginning when nothing matched", "one two three four five", 3, "one two three…"),
		Entry("a match at the end", "one two three four <em>five</em>", 2, "…four <em>five</em>"),
		Entry("a phrase cut by the window", "one <em>two three four</em> five six", 2, "…<em>two three</em>…"),
	)
})

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

var _ = DescribeTable("A ranked request is refused when it breaks a rule",
	func(body string, public bool, message string) {
		r := searchquery.KeyedAccess(rankedSettings)
		if strings.Contains(body, "price") {
			r = searchquery.KeyedAccess(searchv1alpha1.IndexSettings{})
		}
		if public {
			r = searchquery.PublicAccess(rankedSettings, searchv1alpha1.PublicSearchPolicy{RetrievableFields: []searchv1alpha1.FieldPath{"name"}})
		}
		_, err := searchquery.Build(decode(body), r, schema)
		Expect(err).To(MatchError(ContainSubstring(message)))
	},
	Entry("an unknown matching strategy", `{"matchingStrategy": "most"}`, false, "matchingStrategy: must be frequency, all, last or any"),
	Entry("a snippet of 0 words", `{"snippets": [{"field": "name", "words": 0}]}`, false, "snippets[0].words: must be between 1 and 100"),
	Entry("a snippet of 101 words", `{"snippets": [{"field": "name", "words": 101}]}`, false, "snippets[0].words: must be between 1 and 100"),
	Entry("a snippet of a field that is not searchable", `{"snippets": [{"field": "brand"}]}`, false, `snippets[0].field: "brand" is not a searchable field`),
	Entry("a snippet without a field", `{"snippets": [{"words": 3}]}`, false, "snippets[0].field: is required"),
	Entry("too many snippets", `{"snippets": [`+strings.Repeat(`{"field": "name"},`, 10)+`{"field": "name"}]}`, false, "snippets: at most 10"),
	Entry("a public snippet of a field browsers do not get", `{"snippets": [{"field": "description"}]}`, true, `snippets[0].field: "description" is not a retrievable field`),
	Entry("explain in a public search", `{"explain": true}`, true, "explain: is only available with a key"),
	Entry("a snippet of a number field, when no field is searchable", `{"snippets": [{"field": "price"}]}`, false, `snippets[0].field: "price" holds number values, not text`),
)
