package searcher

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// phraseDocs are the segments of the phrase specs' index, a refresh each: repeated
// words, two values of a field, stop words, words a prefix expands to in neighbouring
// documents; the second segment has no t field, and the deleted document is the first
// segment's last.
var phraseDocs = [][]string{{
	`{"t":"red shoe and red shoe"}`,
	`{"t":"red rock wool wool rain"}`,
	`{"t":"red rain"}`,
	`{"t":"red rock"}`,
	`{"t":"sock wool sock"}`,
	`{"t":["blue coat","warm boot"]}`,
	`{"e":"pen of steel"}`,
	`{"e":"pen steel"}`,
	`{"t":"shoe red"}`,
	`{"t":"red shoe deleted"}`,
}, {
	`{"e":"steel pen","d":"red shoe"}`,
	`{"d":"shoe and red"}`,
}, {
	`{"t":"red shoe","d":"blue coat"}`,
}}

func phraseIndex(dir string) *store.Index {
	st, err := store.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(st.Close)
	m, err := mapper.Parse(json.RawMessage(`{"properties":{"t":{"type":"text"},"d":{"type":"text"},"e":{"type":"text","analyzer":"english"}}}`))
	Expect(err).NotTo(HaveOccurred())
	ix, err := st.Create("phrases", store.CreateRequest{Mapping: m})
	Expect(err).NotTo(HaveOccurred())
	id := 1
	for _, seg := range phraseDocs {
		var ops []store.Op
		for _, doc := range seg {
			ops = append(ops, store.Op{Kind: store.OpIndex, ID: fmt.Sprint(id), Source: []byte(doc)})
			id++
		}
		write(ix, ops)
	}
	write(ix, []store.Op{{Kind: store.OpDelete, ID: "10"}})
	return ix
}

// hitIDs are the ids of a response's hits, best first.
func hitIDs(resp string) []string {
	var r struct {
		Hits struct {
			Hits []struct {
				ID string `json:"_id"`
			} `json:"hits"`
		} `json:"hits"`
	}
	Expect(json.Unmarshal([]byte(resp), &r)).To(Succeed())
	ids := []string{}
	for _, h := range r.Hits.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

var _ = Describe("Phrases in the engine's own search loop", Ordered, func() {
	var ix *store.Index
	BeforeAll(func() { ix = phraseIndex(GinkgoT().TempDir()) })

	DescribeTable("match and score as bleve's phrase searcher, and run in the loop",
		func(query string, ids ...string) {
			var q any
			Expect(json.Unmarshal([]byte(query), &q)).To(Succeed())
			before := loopRuns.Load()
			withLoop, without := searchBoth(ix, map[string]any{"query": q, "size": 20})
			Expect(loopRuns.Load()).To(BeNumerically(">", before), "the search must run in the loop")
			Expect(withLoop).To(Equal(without))
			Expect(hitIDs(withLoop)).To(ConsistOf(ids))
		},
		Entry("an exact phrase, a deleted document aside",
			`{"match_phrase":{"t":"red shoe"}}`, "1", "13"),
		Entry("transposed words within a slop of two",
			`{"match_phrase":{"t":{"query":"red shoe","slop":2}}}`, "1", "9", "13"),
		Entry("a repeated word needs as many occurrences",
			`{"match_phrase":{"t":"sock wool sock"}}`, "5"),
		Entry("a repeated word side by side", `{"match_phrase":{"t":"wool wool"}}`, "2"),
		Entry("a repeated word a move apart", `{"match_phrase":{"t":{"query":"sock sock","slop":1}}}`, "5"),
		Entry("more repeats than the document holds", `{"match_phrase":{"t":{"query":"wool wool wool","slop":3}}}`),
		Entry("a prefix's expansions in neighbouring documents, their positions in order",
			`{"match_phrase_prefix":{"t":"red r"}}`, "2", "3", "4"),
		Entry("a prefix's expansions with a slop",
			`{"match_phrase_prefix":{"t":{"query":"rock r","slop":3}}}`, "2", "4"),
		Entry("not across two values of a field", `{"match_phrase":{"t":{"query":"coat warm","slop":8}}}`),
		Entry("across them with a slop past the gap between values",
			`{"match_phrase":{"t":{"query":"coat warm","slop":120}}}`, "6"),
		Entry("a removed stop word keeps its position", `{"match_phrase":{"e":"pen of steel"}}`, "7"),
		Entry("which a slop of one spans", `{"match_phrase":{"e":{"query":"pen steel","slop":1}}}`, "7", "8"),
		Entry("transposed around it", `{"match_phrase":{"e":{"query":"pen of steel","slop":3}}}`, "7", "8", "11"),
		Entry("multi_match of type phrase, the best field with its boost, a segment without one",
			`{"multi_match":{"query":"red shoe","fields":["t^2","d"],"type":"phrase","slop":2}}`, "1", "9", "11", "13"),
		Entry("in a bool's filter, matched only",
			`{"bool":{"must":[{"match":{"t":"red"}}],"filter":[{"match_phrase":{"t":{"query":"red shoe","slop":1}}}]}}`, "1", "13"),
		Entry("in must_not", `{"bool":{"must":[{"match":{"t":"red"}}],"must_not":[{"match_phrase_prefix":{"t":"red r"}}]}}`,
			"1", "9", "13"),
		Entry("the same words at several slops, in must, should and must_not, read once for all",
			`{"bool":{"must":[{"match_phrase":{"t":{"query":"red shoe","slop":2}}}],
				"should":[{"match_phrase":{"t":"red shoe"}}],"must_not":[{"match_phrase":{"t":{"query":"red shoe","slop":1,"boost":3}}}]}}`,
			"9"),
		Entry("and in a should that only the must's documents evaluate",
			`{"bool":{"must":[{"match":{"t":"rain"}}],"should":[{"match_phrase_prefix":{"t":{"query":"red r","slop":2}}}],
				"filter":[{"match_phrase_prefix":{"t":{"query":"red r","slop":3}}}]}}`,
			"2", "3"),
		Entry("a catalog search's proximity clauses: constant scores of phrases in a dis_max",
			`{"bool":{"must":[{"match":{"t":"red"}}],"should":[{"dis_max":{"queries":[
				{"constant_score":{"boost":27,"filter":{"multi_match":{"fields":["t","d"],"query":"red shoe","type":"phrase"}}}},
				{"constant_score":{"boost":18,"filter":{"multi_match":{"fields":["t","d"],"query":"red shoe","slop":2,"type":"phrase"}}}}]}}]}}`,
			"1", "2", "3", "4", "9", "13"),
	)
})
