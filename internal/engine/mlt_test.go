package engine_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// hitIDs runs a raw search body on index and returns the IDs of its hits, in order.
func hitIDs(index, body string) []string {
	GinkgoHelper()
	code, raw, _ := rawDo("POST", "/"+index+"/_search", "application/json", body)
	Expect(code).To(Equal(200), raw)
	var out struct {
		Hits struct {
			Hits []struct {
				ID string `json:"_id"`
			} `json:"hits"`
		} `json:"hits"`
	}
	Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
	ids := []string{}
	for _, h := range out.Hits.Hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// more_like_this selects the words of the like documents and texts with the highest
// tf-idf (Lucene's MoreLikeThis) and matches documents holding enough of them
// (minimum_should_match, 30% by default); ES docs: "More like this query".
var _ = Describe("more_like_this", Ordered, func() {
	var idx string
	const mapping = `{"mappings":{"properties":{"title":{"type":"text"},"brand":{"type":"keyword"},"price":{"type":"double"}}}}`
	BeforeAll(func() {
		idx = uniqueIndex("mlt")
		loadIndex(idx, mapping, []string{
			`{"title":"red wool socks warm","brand":"acme","price":9}`,           // 1
			`{"title":"blue wool socks warm","brand":"acme","price":8}`,          // 2
			`{"title":"red cotton shirt","brand":"zoom","price":20}`,             // 3
			`{"title":"green wool hat warm","brand":"hatco","price":15}`,         // 4
			`{"title":"steel chef knife","brand":"blade","price":45}`,            // 5
			`{"title":"wool socks wool socks striped","brand":"acme","price":7}`, // 6
		})
	})

	mlt := func(opts string) string {
		return `{"query":{"more_like_this":` + opts + `}}`
	}

	It("finds the documents sharing the like document's words, best first, without the document itself", func() {
		// By Lucene's BM25 (avgdl 23/6): 3 holds only "red" (idf ln 2.8, three words):
		// 0.514; 4 holds "wool" and "warm" (idf ln(14/9) and ln 2, four words): 0.507.
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_id":"1"}],"min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"2", "6", "3", "4"}))
	})

	It("includes the like document with include", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_id":"1"}],"min_term_freq":1,"min_doc_freq":1,"include":true}`))).
			To(ContainElement("1"))
	})

	It("keeps only words of the like document frequent enough in it (min_term_freq, 2 by default)", func() {
		// Document 6 holds wool and socks twice: those two alone are selected, so
		// documents 1 and 2 (both words, equal scores) come before 4 (wool only).
		ids := hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_id":"6"}],"min_doc_freq":1}`))
		Expect(ids).To(HaveLen(3))
		Expect(ids[:2]).To(ConsistOf("1", "2"))
		Expect(ids[2]).To(Equal("4"))
	})

	It("needs words held by enough documents (min_doc_freq, 5 by default)", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_id":"1"}],"min_term_freq":1}`))).To(BeEmpty())
	})

	It("leaves out the words of unlike documents and texts, and stop words", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":"red wool","unlike":"wool","min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"3", "1"}))
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_id":"3"}],"unlike":[{"_id":"1"}],"min_term_freq":1,"min_doc_freq":1}`))).
			To(BeEmpty(), "cotton and shirt are held by document 3 alone, which is left out")
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":"red wool","stop_words":["wool"],"min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"3", "1"}))
	})

	It("selects at most max_query_terms words, the rarest first", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":"chef wool","max_query_terms":1,"min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"5"}))
	})

	It("needs minimum_should_match of the selected words", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":"red wool socks","minimum_should_match":"100%","min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"1"}))
	})

	It("reads keyword fields as whole values, and artificial documents", func() {
		Expect(hitIDs(idx, mlt(`{"fields":["brand"],"like":[{"doc":{"brand":"acme"}}],"min_term_freq":1,"min_doc_freq":1}`))).
			To(ConsistOf("1", "2", "6"))
	})

	It("takes the like document from another index, through an alias", func() {
		other := uniqueIndex("mlt-src")
		loadIndex(other, mapping, []string{`{"title":"chef knife","brand":"blade"}`})
		code, raw, _ := rawDo("POST", "/_aliases", "application/json", `{"actions":[{"add":{"index":"`+other+`","alias":"`+other+`-alias"}}]}`)
		Expect(code).To(Equal(200), raw)
		Expect(hitIDs(idx, mlt(`{"fields":["title"],"like":[{"_index":"`+other+`-alias","_id":"1"}],"min_term_freq":1,"min_doc_freq":1}`))).
			To(Equal([]string{"5"}))
	})

	DescribeTable("refuses what Elasticsearch refuses",
		func(body string, status int, reason string) {
			code, raw, _ := rawDo("POST", "/"+idx+"/_search", "application/json", mlt(body))
			Expect(code).To(Equal(status), raw)
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("no like", `{"fields":["title"]}`, 400, "more_like_this requires 'like' to be specified"),
		Entry("an unknown parameter", `{"like":"x","fields":["title"],"colour":1}`, 400, "[mlt] query does not support [colour]"),
		Entry("a numeric field", `{"like":"x","fields":["price"]}`, 400, "more_like_this only supports text/keyword fields: [price]"),
		Entry("free text without fields", `{"like":"x"}`, 400, "cannot infer the field to analyze the free text"),
		Entry("an item with id and doc", `{"like":[{"_id":"1","doc":{"title":"x"}}]}`, 400, "either [id] or [doc] can be specified, but not both!"),
		Entry("an item with neither", `{"like":[{"_index":"x"}]}`, 400, "neither [id] nor [doc] is specified!"),
	)
})
