package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// scoreHit is one hit of a raw search: its id, its _score as the float32 ES keeps, and
// its matched_queries.
type scoreHit struct {
	id      string
	score   float32
	matched []string
}

// searchScores runs a raw search and returns its hits in order.
func searchScores(idx, body string) []scoreHit {
	code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", body)
	Expect(code).To(Equal(200), raw)
	var res struct {
		Hits struct {
			Hits []struct {
				ID      string      `json:"_id"`
				Score   json.Number `json:"_score"`
				Matched []string    `json:"matched_queries"`
			} `json:"hits"`
		} `json:"hits"`
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	Expect(dec.Decode(&res)).To(Succeed())
	out := make([]scoreHit, 0, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		hit := scoreHit{id: h.ID, matched: h.Matched}
		if h.Score != "" { // null when sorted by a field
			f, err := h.Score.Float64()
			Expect(err).NotTo(HaveOccurred())
			hit.score = float32(f)
		}
		out = append(out, hit)
	}
	return out
}

// scoresByID runs a query and returns each hit's score by id.
func scoresByID(idx, query string) map[string]float32 {
	out := map[string]float32{}
	for _, h := range searchScores(idx, `{"size":100,"query":`+query+`}`) {
		out[h.id] = h.score
	}
	return out
}

// The expected scores below were computed by hand from Lucene 9's formulas, in float32
// arithmetic as Lucene does (BM25Similarity: idf = ln(1 + (N - n + 0.5)/(n + 0.5)),
// avgdl = sumTotalTermFreq/docCount, lengths through SmallFloat.intToByte4, score =
// w - w/(1 + freq/(k1(1 - b + b·dl/avgdl))) with w = boost·idf; bool sums in a double
// rounded to a float; DisjunctionMaxScorer's max + tie·others).
var _ = Describe("Scores as Lucene 9 computes them", Ordered, func() {
	idx := "scores"
	long := "red"
	for i := 0; i < 44; i++ {
		long += fmt.Sprintf(" word%d", i)
	}
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"title":{"type":"text"},"body":{"type":"text"},"tag":{"type":"keyword"},"n":{"type":"integer"}}}}`,
			[]string{
				`{"title":"red shoes","body":"red","tag":"sale","n":1}`,
				`{"title":"red red shoes for running","tag":"new","n":4}`,
				`{"title":"blue shoes","body":"red shoes red","tag":"sale","n":9}`,
				`{"title":"red","n":0}`,
				`{"title":"` + long + `","tag":"sale"}`,
			})
	})

	DescribeTable("a document's score is Lucene's, to the bit",
		func(query string, want map[string]float32) {
			Expect(scoresByID(idx, query)).To(Equal(want))
		},
		Entry("BM25 of a term in text (45 tokens is a lossy norm: 44)", `{"match":{"title":"red"}}`,
			map[string]float32{"1": 0.19655297696590424, "2": 0.2123827487230301, "4": 0.20819097757339478, "5": 0.05871061980724335}),
		Entry("a match of two terms sums them", `{"match":{"title":"red shoes"}}`,
			map[string]float32{"1": 0.5648114681243896, "2": 0.5277530550956726, "3": 0.3682584762573242, "4": 0.20819097757339478, "5": 0.05871061980724335}),
		Entry("operator and: the same sums, fewer documents", `{"match":{"title":{"query":"red shoes","operator":"and"}}}`,
			map[string]float32{"1": 0.5648114681243896, "2": 0.5277530550956726}),
		Entry("a keyword term: no frequencies, no norms", `{"term":{"tag":"sale"}}`,
			map[string]float32{"1": 0.16212496161460876, "3": 0.16212496161460876, "5": 0.16212496161460876}),
		Entry("bool should sums its clauses, a boost goes into the term's weight",
			`{"bool":{"should":[{"match":{"title":{"query":"red","boost":2}}},{"term":{"tag":"sale"}}]}}`,
			map[string]float32{"1": 0.5552309155464172, "2": 0.4247654974460602, "3": 0.16212496161460876, "4": 0.41638195514678955, "5": 0.27954620122909546}),
		Entry("dis_max is the best clause plus tie_breaker times the others",
			`{"dis_max":{"tie_breaker":0.3,"queries":[{"match":{"title":"red"}},{"match":{"title":"shoes"}}]}}`,
			map[string]float32{"1": 0.42722436785697937, "2": 0.37908515334129333, "3": 0.3682584762573242, "4": 0.20819097757339478, "5": 0.05871061980724335}),
		Entry("multi_match best_fields: dis_max of the fields, ^boost on each",
			`{"multi_match":{"query":"red","fields":["title^2","body"]}}`,
			map[string]float32{"1": 0.39310595393180847, "2": 0.4247654974460602, "3": 0.09990222007036209, "4": 0.41638195514678955, "5": 0.1174212396144867}),
		Entry("multi_match most_fields: the fields summed",
			`{"multi_match":{"query":"red","fields":["title^2","body"],"type":"most_fields"}}`,
			map[string]float32{"1": 0.4972897171974182, "2": 0.4247654974460602, "3": 0.09990222007036209, "4": 0.41638195514678955, "5": 0.1174212396144867}),
		Entry("multi_match with a tie_breaker",
			`{"multi_match":{"query":"red","fields":["title^2","body"],"tie_breaker":0.5}}`,
			map[string]float32{"1": 0.44519782066345215, "2": 0.4247654974460602, "3": 0.09990222007036209, "4": 0.41638195514678955, "5": 0.1174212396144867}),
		Entry("a phrase: BM25 with its occurrences as frequency and its terms' idfs summed",
			`{"match_phrase":{"title":"red shoes"}}`,
			map[string]float32{"1": 0.5648114681243896, "2": 0.4836949408054352}),
		Entry("match_bool_prefix: terms, and the last as a constant-scoring prefix",
			`{"match_bool_prefix":{"title":"red sho"}}`,
			map[string]float32{"1": 1.1965529918670654, "2": 1.2123827934265137, "3": 1, "4": 0.20819097757339478, "5": 0.05871061980724335}),
	)

	DescribeTable("filters and constant queries score as in Elasticsearch",
		func(query string, want map[string]float32) {
			Expect(scoresByID(idx, query)).To(Equal(want))
		},
		Entry("a bool of filters only scores 0", `{"bool":{"filter":[{"term":{"tag":"sale"}}]}}`,
			map[string]float32{"1": 0, "3": 0, "5": 0}),
		Entry("a bool of must_not only scores 0", `{"bool":{"must_not":[{"term":{"tag":"sale"}}]}}`,
			map[string]float32{"2": 0, "4": 0}),
		Entry("without adjust_pure_negative, must_not alone matches nothing", `{"bool":{"must_not":[{"term":{"tag":"sale"}}],"adjust_pure_negative":false}}`,
			map[string]float32{}),
		Entry("a bool without clauses is match_all", `{"bool":{"boost":2}}`,
			map[string]float32{"1": 2, "2": 2, "3": 2, "4": 2, "5": 2}),
		Entry("match_all scores its boost", `{"match_all":{"boost":2.5}}`,
			map[string]float32{"1": 2.5, "2": 2.5, "3": 2.5, "4": 2.5, "5": 2.5}),
		Entry("constant_score scores its boost, 1 by default", `{"constant_score":{"filter":{"match":{"title":"blue"}}}}`,
			map[string]float32{"3": 1}),
		Entry("a bool's boost multiplies its clauses'", `{"bool":{"boost":3,"must":[{"constant_score":{"filter":{"term":{"tag":"new"}},"boost":2}}],"filter":[{"range":{"n":{"gte":0}}}]}}`,
			map[string]float32{"2": 6}),
		Entry("terms, range, prefix, exists and ids score their boost",
			`{"bool":{"should":[{"terms":{"tag":["new"],"boost":1.5}},{"range":{"n":{"gte":9,"boost":0.25}}},{"prefix":{"title":{"value":"runn","boost":4}}},{"exists":{"field":"body","boost":8}},{"ids":{"values":["4"],"boost":16}}]}}`,
			map[string]float32{"1": 8, "2": 5.5, "3": 8.25, "4": 16}),
		Entry("should clauses beside a filter only score", `{"bool":{"filter":[{"term":{"tag":"sale"}}],"should":[{"constant_score":{"filter":{"match":{"title":"blue"}},"boost":5}}]}}`,
			map[string]float32{"1": 0, "3": 5, "5": 0}),
		Entry("should clauses alone need one match, even with minimum_should_match 0",
			`{"bool":{"should":[{"constant_score":{"filter":{"term":{"tag":"new"}}}}],"minimum_should_match":0}}`,
			map[string]float32{"2": 1}),
	)

	// Tiered ranking encodes each criterion as a band of integer boosts: Lucene's floats
	// hold integers below 2^24 exactly, and so must the engine's sums.
	It("adds constant_score bands exactly", func() {
		hits := searchScores(idx, `{"query":{"bool":{"should":[
			{"constant_score":{"filter":{"match":{"title":"red"}},"boost":3000000}},
			{"constant_score":{"filter":{"term":{"tag":"sale"}},"boost":250000}},
			{"constant_score":{"filter":{"match":{"title":"shoes"}},"boost":17}}]}}}`)
		Expect(hits).To(Equal([]scoreHit{
			{id: "1", score: 3250017}, {id: "5", score: 3250000}, {id: "2", score: 3000017},
			{id: "4", score: 3000000}, {id: "3", score: 250017},
		}))
		_, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json",
			`{"size":1,"query":{"bool":{"should":[{"constant_score":{"filter":{"match":{"title":"red"}},"boost":3000000}},{"constant_score":{"filter":{"term":{"tag":"sale"}},"boost":250000}},{"constant_score":{"filter":{"match":{"title":"shoes"}},"boost":17}}]}}}`)
		Expect(raw).To(ContainSubstring(`"_score":3250017,`))
		Expect(raw).To(ContainSubstring(`"max_score":3250017,`))
	})

	It("renders a score as the float it is", func() {
		_, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":{"constant_score":{"filter":{"term":{"tag":"new"}},"boost":0.1}}}`)
		Expect(raw).To(ContainSubstring(`"_score":0.1,`))
	})

	It("takes a dis_max's queries and refuses one without", func() {
		code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":{"dis_max":{"queries":[]}}}`)
		Expect(code).To(Equal(400))
		Expect(raw).To(ContainSubstring("[dis_max] requires 'queries' field with at least one clause"))
	})

	DescribeTable("refuses multi_match options Elasticsearch refuses for a type",
		func(query, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":`+query+`}`)
			Expect(code).To(Equal(400))
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("fuzziness on phrases", `{"multi_match":{"query":"red","fields":["title"],"type":"phrase","fuzziness":1}}`, "Fuzziness not allowed for type [phrase]"),
		Entry("slop on bool_prefix", `{"multi_match":{"query":"red","fields":["title"],"type":"bool_prefix","slop":1}}`, "[slop] not allowed for type [bool_prefix]"),
		Entry("cross_fields, whose blended statistics the engine does not compute", `{"multi_match":{"query":"red","fields":["title"],"type":"cross_fields"}}`, "[multi_match] type [cross_fields] is not supported by this engine"),
	)
})

var _ = Describe("Named queries", Ordered, func() {
	idx := "named"
	BeforeAll(func() {
		loadIndex(idx, `{"mappings":{"properties":{"title":{"type":"text"},"tag":{"type":"keyword"}}}}`,
			[]string{`{"title":"red shoes","tag":"sale"}`, `{"title":"red hat","tag":"new"}`, `{"title":"blue shoes","tag":"sale"}`})
	})

	It("lists, per hit, the names of the queries that match it, wherever they are", func() {
		hits := searchScores(idx, `{"query":{"bool":{
			"should":[{"match":{"title":{"query":"red","_name":"red"}}},{"term":{"tag":{"value":"sale","_name":"on sale"}}}],
			"filter":[{"exists":{"field":"title","_name":"titled"}}],
			"must_not":[{"match":{"title":{"query":"hat","_name":"hat"}}}]}},
			"sort":["_doc"]}`)
		Expect(hits).To(HaveLen(2))
		Expect(hits[0].matched).To(Equal([]string{"on sale", "red", "titled"}))
		Expect(hits[1].matched).To(Equal([]string{"on sale", "titled"}))
	})

	It("leaves matched_queries out when no named query matches", func() {
		_, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", `{"query":{"bool":{"should":[{"match_all":{}},{"term":{"tag":{"value":"none","_name":"n"}}}]}}}`)
		Expect(raw).NotTo(ContainSubstring("matched_queries"))
	})
})
