package searcher

import (
	"encoding/json"
	"math/rand"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/store"
)

// variantsOf is a catalog search's dis_max of one word's variants (internal/searchquery):
// exact on the analysed fields, a typo on their words subfields, and for the last word
// (still being typed) a prefix.
func variantsOf(word string, last bool) string { return bandsOf(word, last, "title") }

// bandsOf is variantsOf over the title field named title (and description).
func bandsOf(word string, last bool, title string) string {
	band := func(boost, filter string) string {
		return `{"constant_score":{"boost":` + boost + `,"filter":` + filter + `}}`
	}
	fuzzy := func(field string) string {
		return `{"match":{"` + field + `":{"query":"` + word + `","operator":"and","fuzziness":1,"prefix_length":1,"fuzzy_transpositions":true}}}`
	}
	bands := []string{
		band("76", `{"match":{"`+title+`":{"query":"`+word+`","operator":"and"}}}`),
		band("73", `{"match":{"description":{"query":"`+word+`","operator":"and"}}}`),
		band("39", fuzzy(title+".words")),
		band("36", fuzzy("description.words")),
	}
	if last {
		bands = append(bands,
			band("75", `{"match_bool_prefix":{"`+title+`.words":{"query":"`+word+`","operator":"and"}}}`),
			band("72", `{"match_bool_prefix":{"description.words":{"query":"`+word+`","operator":"and"}}}`))
	}
	return `{"dis_max":{"queries":[` + strings.Join(bands, ",") + `]}}`
}

// hitsOf is the number of hits of a response.
func hitsOf(resp string) float64 {
	var r struct {
		Hits struct {
			Total struct{ Value float64 } `json:"total"`
		} `json:"hits"`
	}
	Expect(json.Unmarshal([]byte(resp), &r)).To(Succeed())
	return r.Hits.Total.Value
}

// expectLoopAsBleve runs query (size hits, with a brand facet) through the loop and
// through bleve, and expects the loop to have run it, with the same answer, of some hits.
func expectLoopAsBleve(ix *store.Index, query string, size int) {
	GinkgoHelper()
	var q any
	Expect(json.Unmarshal([]byte(query), &q)).To(Succeed())
	body := map[string]any{"query": q, "size": size, "track_total_hits": true,
		"aggs": map[string]any{"brands": map[string]any{"terms": map[string]any{"field": "brand"}}}}
	before := loopRuns.Load()
	withLoop, without := searchBoth(ix, body)
	Expect(loopRuns.Load()-before).To(BeNumerically(">=", 1), "the search went through bleve")
	Expect(withLoop).To(Equal(without))
	Expect(hitsOf(withLoop)).To(BeNumerically(">", 0))
}

var _ = Describe("The engine's own search loop on constant_score bands and multi-term queries", Ordered, func() {
	var ix *store.Index
	BeforeAll(func() { ix = diffIndex(GinkgoT().TempDir(), rand.New(rand.NewSource(7))) })

	DescribeTable("runs them, matching and scoring as bleve's searchers",
		func(query string) { expectLoopAsBleve(ix, query, 30) },
		Entry("a catalog search of two words, a typo and a prefix, with a brand band",
			`{"bool":{"filter":[{"range":{"price":{"lt":400}}}],"must":[{"bool":{
			  "must":[`+variantsOf("jakcet", false)+`,`+variantsOf("trai", true)+`],
			  "should":[{"constant_score":{"boost":36,"filter":{"term":{"brand":"b2"}}}}]}}]}}`),
		Entry("matching strategy any: a bool whose should clauses one must match",
			`{"bool":{"must":[{"bool":{"should":[`+variantsOf("wool", false)+`,`+variantsOf("bots", true)+`],"minimum_should_match":1}}]}}`),
		Entry("matching strategy last: a run of the first words, a bool of filters",
			`{"bool":{"must":[`+variantsOf("rain", false)+`],"should":[`+variantsOf("coat", true)+`,
			  {"constant_score":{"boost":300,"filter":{"bool":{"filter":[`+variantsOf("rain", false)+`,`+variantsOf("coat", true)+`]}}}}]}}`),
		Entry("hidden records: ids excluded, some updated or deleted",
			`{"bool":{"must":[`+variantsOf("sock", true)+`],"must_not":[{"ids":{"values":["1","2","3","4501","4700","4801"]}}]}}`),
		Entry("a synonym unit of two words in a run of words: a union of a bool and terms as a filter",
			`{"bool":{"must":[`+variantsOf("hiking", false)+`],"should":[{"constant_score":{"boost":300,"filter":{"bool":{"filter":[
			  `+variantsOf("hiking", false)+`,
			  {"dis_max":{"queries":[{"bool":{"must":[`+variantsOf("rain", false)+`,`+variantsOf("coat", true)+`]}},
			    {"constant_score":{"boost":70,"filter":{"match":{"title":{"query":"jacket","operator":"and"}}}}}]}}]}}}}]}}`),
		Entry("a bury: a bool of must_not only, every other document",
			`{"bool":{"must":[`+variantsOf("red", true)+`],"should":[{"constant_score":{"boost":8,"filter":{"bool":{"must_not":[{"terms":{"brand":["b1","b3"]}}]}}}}]}}`),
		Entry("a bool of must_not only as the query: every document but the deleted and the excluded",
			`{"constant_score":{"boost":2,"filter":{"bool":{"must_not":[{"terms":{"brand":["b1","b3"]}}]}}}}`),
		Entry("a prefix of several fields, of a word the analyser splits",
			`{"constant_score":{"boost":72,"filter":{"multi_match":{"query":"wool-bo","fields":["title.words","description.words"],"type":"bool_prefix","operator":"and"}}}}`),
		Entry("a prefix of hundreds of terms",
			`{"bool":{"must":[{"constant_score":{"boost":3,"filter":{"prefix":{"description.words":"x"}}}}],"should":[{"prefix":{"description":"x1"}}]}}`),
		Entry("a word the analyser splits, its terms all required",
			`{"constant_score":{"boost":5,"filter":{"match":{"title.words":{"query":"alpine-jackt","operator":"and","fuzziness":1}}}}}`),
		Entry("a fuzzy match scored, its expansions' doc freqs blended",
			`{"match":{"description.words":{"query":"wol bots","fuzziness":"AUTO","max_expansions":2}}}`),
		Entry("a fuzzy match scored by its similarity alone",
			`{"match":{"title.words":{"query":"jakcet","fuzziness":2,"fuzzy_rewrite":"top_terms_boost_5"}}}`),
		Entry("a fuzzy match of a constant score",
			`{"match":{"title":{"query":"trsil","fuzziness":1,"fuzzy_transpositions":false,"fuzzy_rewrite":"constant_score","boost":3}}}`),
		Entry("a fuzzy query on a keyword field and a terms query, as filters of a scored bool",
			`{"bool":{"must":[{"match":{"title":"jacket"}}],"filter":[{"fuzzy":{"brand":{"value":"b9","fuzziness":1}}}],"must_not":[{"constant_score":{"filter":{"terms":{"category":["c1"]}}}}]}}`),
	)
})

var _ = Describe("A bool in filter context on bleve's path", func() {
	It("requires its should clauses' minimum beside its must clauses, as when they score", func() {
		ix := diffIndex(GinkgoT().TempDir(), rand.New(rand.NewSource(3)))
		should := `[{"match":{"title":"rain"}},{"terms":{"brand":["b0","b3"]}}]`
		total := func(query string) float64 {
			var q any
			Expect(json.Unmarshal([]byte(query), &q)).To(Succeed())
			_, without := searchBoth(ix, map[string]any{"query": q, "size": 1, "track_total_hits": true})
			return hitsOf(without)
		}
		filtered := total(`{"constant_score":{"filter":{"bool":{"must":[{"match":{"title":"sock"}}],"should":` + should + `,"minimum_should_match":1}}}}`)
		scored := total(`{"bool":{"must":[{"match":{"title":"sock"}}],"should":` + should + `,"minimum_should_match":1}}`)
		Expect(filtered).To(Equal(scored))
		Expect(filtered).To(BeNumerically("<", total(`{"match":{"title":"sock"}}`)))
	})
})
