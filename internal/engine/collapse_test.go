package engine_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// searchRaw posts a search and decodes its answer, which must be a 200.
func searchRaw(index, body string) map[string]any {
	code, raw, _ := rawDo("POST", "/"+index+"/_search", "application/json", body)
	Expect(code).To(Equal(200), raw)
	var out map[string]any
	Expect(json.Unmarshal([]byte(raw), &out)).To(Succeed())
	return out
}

// hitsOf lists the hits of a search answer (or of an inner_hits entry).
func hitsOf(resp map[string]any) []map[string]any {
	raw := resp["hits"].(map[string]any)["hits"].([]any)
	out := make([]map[string]any, len(raw))
	for i, h := range raw {
		out[i] = h.(map[string]any)
	}
	return out
}

func idsOf(hits []map[string]any) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h["_id"].(string)
	}
	return out
}

// Collapsing (ES's `collapse`) shows one hit per value of a field: the best document of
// its group by the search's sort, groups in that order, pages over groups, while the
// total still counts documents. The variants of a product are the documents of a group.
var _ = Describe("Collapsing hits on a field", Ordered, func() {
	const mapping = `{"mappings":{"properties":{"group":{"type":"keyword"},"num":{"type":"integer"},"price":{"type":"double"},"title":{"type":"text"}}}}`
	var a, b string

	// Index a gets two segments, so that groups span segments; index b shares groups
	// with a, so that groups merge across indices.
	BeforeAll(func() {
		a, b = uniqueIndex("cola"), uniqueIndex("colb")
		loadIndex(a, mapping, []string{
			`{"group":"shirt","num":1,"price":20,"title":"red shirt"}`,
			`{"group":"shirt","num":1,"price":15,"title":"blue shirt"}`,
			`{"group":"shoe","num":2,"price":60,"title":"trail shoe"}`,
		})
		bulkRefreshed(a, `{"index":{"_id":"4"}}`, `{"group":"shirt","num":1,"price":30,"title":"green shirt"}`,
			`{"index":{"_id":"5"}}`, `{"group":"hat","num":3,"price":10,"title":"sun hat"}`,
			`{"index":{"_id":"6"}}`, `{"price":5,"title":"loose sock"}`)
		loadIndex(b, mapping, []string{`{"group":"shoe","num":2,"price":80,"title":"road shoe"}`})
	})

	It("keeps each group's best document, in the search's order, counting every document", func() {
		resp := searchRaw(a, `{"collapse":{"field":"group"},"sort":[{"price":"desc"}]}`)
		Expect(idsOf(hitsOf(resp))).To(Equal([]string{"3", "4", "5", "6"}))
		Expect(resp["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", BeNumerically("==", 6)))
		Expect(hitsOf(resp)[1]["fields"]).To(Equal(map[string]any{"group": []any{"shirt"}}))
		Expect(hitsOf(resp)[3]["fields"]).To(Equal(map[string]any{"group": []any{nil}}), "the documents without a value are one group")
	})

	It("pages over groups with from and size", func() {
		resp := searchRaw(a, `{"from":1,"size":2,"collapse":{"field":"group"},"sort":[{"price":"asc"}]}`)
		Expect(idsOf(hitsOf(resp))).To(Equal([]string{"5", "2"}))
	})

	It("collapses on a numeric field and merges groups across indices", func() {
		resp := searchRaw(a+","+b, `{"collapse":{"field":"num"},"sort":[{"price":"desc"}]}`)
		hits := hitsOf(resp)
		Expect(idsOf(hits)).To(Equal([]string{"1", "4", "5", "6"}))
		Expect(hits[0]["_index"]).To(Equal(b), "the best shoe is in b")
		Expect(hits[0]["fields"]).To(Equal(map[string]any{"num": []any{float64(2)}}))
		Expect(resp["hits"].(map[string]any)["total"]).To(HaveKeyWithValue("value", BeNumerically("==", 7)))
	})

	It("expands groups with inner_hits: their own size, sort and _source", func() {
		resp := searchRaw(a, `{"query":{"match":{"title":"shirt shoe"}},"collapse":{"field":"group",
			"inner_hits":[{"name":"cheapest","size":2,"sort":[{"price":"asc"}],"_source":["price"]},{"name":"all","size":0}]}}`)
		for _, h := range hitsOf(resp) {
			inner := h["inner_hits"].(map[string]any)
			cheapest := inner["cheapest"].(map[string]any)
			if h["fields"].(map[string]any)["group"].([]any)[0] == "shirt" {
				Expect(idsOf(hitsOf(cheapest))).To(Equal([]string{"2", "1"}))
				Expect(hitsOf(cheapest)[0]["_source"]).To(Equal(map[string]any{"price": float64(15)}))
				all := inner["all"].(map[string]any)["hits"].(map[string]any)
				Expect(all["total"]).To(HaveKeyWithValue("value", BeNumerically("==", 3)))
			}
		}
	})

	It("pages with search_after when sorted on the collapse field alone", func() {
		resp := searchRaw(a, `{"size":1,"collapse":{"field":"group"},"sort":[{"group":"asc"}],"search_after":["hat"]}`)
		Expect(hitsOf(resp)[0]["fields"]).To(Equal(map[string]any{"group": []any{"shirt"}}))
		code, raw, _ := rawDo("POST", "/"+a+"/_search", "application/json",
			`{"collapse":{"field":"group"},"sort":[{"price":"asc"}],"search_after":[10]}`)
		Expect(code).To(Equal(400), raw)
		Expect(raw).To(ContainSubstring("Cannot use [collapse] in conjunction with [search_after]"))
	})

	DescribeTable("refuses what ES refuses",
		func(body, reason string) {
			code, raw, _ := rawDo("POST", "/"+a+"/_search", "application/json", body)
			Expect(code).To(Equal(400), raw)
			Expect(raw).To(ContainSubstring(reason))
		},
		Entry("a text field", `{"collapse":{"field":"title"}}`, "collapse is not supported for the field [title] of the type [text]"),
		Entry("an unmapped field", `{"collapse":{"field":"nope"}}`, "no mapping found for `nope` in order to collapse on"),
		Entry("an unknown key", `{"collapse":{"field":"group","bogus":1}}`, "[collapse] unknown field [bogus]"),
		Entry("inner_hits in an inner collapse", `{"collapse":{"field":"group","inner_hits":{"collapse":{"field":"num","inner_hits":{}}}}}`, "x_content_parse_exception"),
		Entry("two inner_hits of one name", `{"collapse":{"field":"group","inner_hits":[{"name":"x"},{"name":"x"}]}}`, "already contains an entry for key [x]"),
		Entry("rescore", `{"collapse":{"field":"group"},"rescore":{}}`, "cannot use `collapse` in conjunction with `rescore`"),
	)
})

// External versions (version_type=external) set the version a document takes, which
// must rise; ES's field-collapsing tests index their documents so.
var _ = Describe("Externally versioned writes", func() {
	It("take the given version and refuse one that is not above it", func() {
		idx := uniqueIndex("extver")
		code, raw, _ := rawDo("PUT", "/"+idx+"/_doc/1?version=5&version_type=external", "application/json", `{"a":1}`)
		Expect(code).To(Equal(201), raw)
		Expect(raw).To(ContainSubstring(`"_version":5`))
		code, raw, _ = rawDo("PUT", "/"+idx+"/_doc/1?version=5&version_type=external", "application/json", `{"a":2}`)
		Expect(code).To(Equal(409), raw)
		Expect(raw).To(ContainSubstring("current version [5] is higher or equal to the one provided [5]"))
		code, raw, _ = rawDo("PUT", "/"+idx+"/_doc/1?version=5&version_type=external_gte", "application/json", `{"a":2}`)
		Expect(code).To(Equal(200), raw)
		code, raw, _ = rawDo("PUT", "/"+idx+"/_doc/1?version=7", "application/json", `{"a":3}`)
		Expect(code).To(Equal(400), raw)
		Expect(raw).To(ContainSubstring("internal versioning can not be used for optimistic concurrency control"))
	})
})
