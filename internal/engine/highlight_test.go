package engine_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// highlightMapping has an English title with a `words` subfield (no stemming, folded),
// as the product maps searchable fields, and a search analyzer with a multi-word synonym.
const highlightMapping = `{
 "settings":{"analysis":{
   "filter":{"syn":{"type":"synonym_graph","synonyms":["tv, television set"]}},
   "analyzer":{
     "words":{"type":"custom","tokenizer":"standard","filter":["lowercase","asciifolding"]},
     "words_syn":{"type":"custom","tokenizer":"standard","filter":["lowercase","syn"]}}}},
 "mappings":{"properties":{
   "title":{"type":"text","analyzer":"english","fields":{"words":{"type":"text","analyzer":"words","search_analyzer":"words_syn"}}},
   "description":{"type":"text"},
   "features":{"type":"text"},
   "brand":{"type":"keyword"}}}}`

var highlightDocs = []string{
	`{"title":"Men's running shoes & socks","description":"light shoes for the trail","brand":"acme"}`,
	`{"title":"Trail running shoes and running socks","description":"grippy trail shoe","features":["waterproof shoes","light","grippy shoes"]}`,
	`{"title":"Set of two: television set","description":"a stand"}`,
	`{"title":"The quick brown fox. It jumps over the lazy dog. The end.","description":"fox"}`,
}

// highlightOf searches idx and returns each hit's highlight by _id.
func highlightOf(idx, body string) map[string]map[string][]string {
	status, out, _ := rawDo(http.MethodPost, "/"+idx+"/_search", "application/json", body)
	Expect(status).To(Equal(200), out)
	var res struct {
		Hits struct {
			Hits []struct {
				ID        string              `json:"_id"`
				Highlight map[string][]string `json:"highlight"`
			} `json:"hits"`
		} `json:"hits"`
	}
	Expect(json.Unmarshal([]byte(out), &res)).To(Succeed())
	got := map[string]map[string][]string{}
	for _, h := range res.Hits.Hits {
		got[h.ID] = h.Highlight
	}
	return got
}

var _ = Describe("highlight", Ordered, func() {
	var idx string
	BeforeAll(func() {
		idx = uniqueIndex("highlight")
		loadIndex(idx, highlightMapping, highlightDocs)
	})

	It("marks stemmed matches in whole values, escaped by the html encoder", func() {
		got := highlightOf(idx, `{"query":{"ids":{"values":["1"]}},"highlight":{"encoder":"html","number_of_fragments":0,
			"highlight_query":{"match":{"title":"shoe"}},"fields":{"title":{}}}}`)
		Expect(got["1"]).To(Equal(map[string][]string{"title": {"Men&#x27;s running <em>shoes</em> &amp; socks"}}))
	})

	// ES 8's unified highlighter marks what each clause matched (Weight#matches): a phrase
	// as one span, and nothing of a clause that did not match the document.
	It("marks a phrase as one span and only where the phrase matched", func() {
		got := highlightOf(idx, `{"query":{"match_phrase":{"title":"running shoes"}},
			"highlight":{"number_of_fragments":0,"fields":{"title":{}}}}`)
		Expect(got["2"]["title"]).To(Equal([]string{"Trail <em>running shoes</em> and running socks"}))
		got = highlightOf(idx, `{"query":{"bool":{"should":[{"match_phrase":{"title":"socks shoes"}},{"match":{"title":"trail"}}]}},
			"highlight":{"number_of_fragments":0,"fields":{"title":{}}}}`)
		Expect(got["2"]["title"]).To(Equal([]string{"<em>Trail</em> running shoes and running socks"}))
	})

	It("marks prefix and typo matches of a subfield in the parent's text through matched_fields", func() {
		got := highlightOf(idx, `{"query":{"ids":{"values":["2"]}},"highlight":{"number_of_fragments":0,
			"highlight_query":{"bool":{"should":[
				{"constant_score":{"filter":{"match":{"title.words":{"query":"sheos","fuzziness":1,"prefix_length":1}}}}},
				{"constant_score":{"filter":{"prefix":{"title.words":"trai"}}}}]}},
			"fields":{"title":{"matched_fields":["title","title.words"]}}}}`)
		Expect(got["2"]["title"]).To(Equal([]string{"<em>Trail</em> running <em>shoes</em> and running socks"}))
	})

	// The engine's DSL refuses fuzzy_transpositions: false; highlight/ tests it.
	It("counts a transposition as one edit, and two edits as two", func() {
		q := `{"query":{"ids":{"values":["2"]}},"highlight":{"number_of_fragments":0,
			"highlight_query":{"match":{"title.words":{"query":"%s","fuzziness":1}}},
			"fields":{"title.words":{}}}}`
		Expect(highlightOf(idx, fmt.Sprintf(q, "sheos"))["2"]["title.words"]).To(Equal([]string{"Trail running <em>shoes</em> and running socks"}))
		Expect(highlightOf(idx, fmt.Sprintf(q, "sehos"))["2"]).To(BeNil())
	})

	It("marks a multi-word synonym as a phrase", func() {
		got := highlightOf(idx, `{"query":{"match":{"title.words":"tv"}},"highlight":{"number_of_fragments":0,"fields":{"title.words":{}}}}`)
		Expect(got["3"]["title.words"]).To(Equal([]string{"Set of two: <em>television set</em>"}))
	})

	// ES's BoundedBreakIteratorScanner: the passage starts at the sentence holding the
	// match and takes the following sentences while they fit in fragment_size; a sentence
	// longer than that is cut at the word boundaries about fragment_size around the match.
	It("cuts passages at sentences within fragment_size", func() {
		got := highlightOf(idx, `{"query":{"match":{"title":"lazy"}},"highlight":{"number_of_fragments":1,"fields":{"title":{}}}}`)
		Expect(got["4"]["title"]).To(Equal([]string{"It jumps over the <em>lazy</em> dog. The end."}))
		got = highlightOf(idx, `{"query":{"match":{"title":"lazy"}},"highlight":{"fragment_size":20,"fields":{"title":{}}}}`)
		Expect(got["4"]["title"]).To(Equal([]string{"It jumps over the <em>lazy</em>"}))
	})

	It("shows the values that matched, each whole, with number_of_fragments 0", func() {
		got := highlightOf(idx, `{"query":{"match":{"features":"shoes"}},"highlight":{"number_of_fragments":0,"fields":{"features":{}}}}`)
		Expect(got["2"]["features"]).To(Equal([]string{"waterproof <em>shoes</em>", "grippy <em>shoes</em>"}))
	})

	It("takes tags, keyword fields, patterns, no_match_size and require_field_match", func() {
		got := highlightOf(idx, `{"query":{"term":{"brand":"acme"}},"highlight":{"pre_tags":["["],"post_tags":["]"],
			"fields":{"bra*":{},"description":{"no_match_size":10}}}}`)
		Expect(got["1"]).To(Equal(map[string][]string{"brand": {"[acme]"}, "description": {"light shoes"}}))
		got = highlightOf(idx, `{"query":{"match":{"description":"grippy"}},"highlight":{"require_field_match":false,"fields":{"title":{},"features":{}}}}`)
		Expect(got["2"]).To(Equal(map[string][]string{"features": {"<em>grippy</em> shoes"}}))
	})

	DescribeTable("refuses what ES refuses",
		func(highlight, typ, reason string) {
			status, out, _ := rawDo(http.MethodPost, "/"+idx+"/_search", "application/json", `{"query":{"match_all":{}},"highlight":`+highlight+`}`)
			Expect(status).To(Equal(400))
			Expect(out).To(ContainSubstring(`"type":"` + typ + `"`))
			Expect(out).To(ContainSubstring(reason))
		},
		Entry("an unknown key", `{"fields":{"title":{}},"fragmentsize":3}`, "x_content_parse_exception", "[highlight] unknown field [fragmentsize]"),
		Entry("an unknown field key", `{"fields":{"title":{"matched_field":["a"]}}}`, "x_content_parse_exception", "[highlight_field] unknown field [matched_field]"),
		Entry("empty tags", `{"fields":{"title":{}},"pre_tags":[],"post_tags":[]}`, "illegal_argument_exception", "pre_tags or post_tags must not be empty"),
		Entry("a bad highlight_query", `{"fields":{"title":{}},"highlight_query":{"klingon":{}}}`, "parsing_exception", "unknown query [klingon]"),
		Entry("another highlighter", `{"fields":{"title":{}},"type":"fvh"}`, "illegal_argument_exception", "highlighter type [fvh] is not supported"),
	)
})
