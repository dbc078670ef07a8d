package whynot_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/whynot"
)

// searchBody is a search's body as searchquery builds one, with what the extra searches
// must drop or keep.
const searchBody = `{"query": {"bool": {"must": [{"match": {"name": "desk"}}], "filter": [{"term": {"brand": "Oak"}}], "must_not": [{"ids": {"values": ["h"]}}]}},
	"from": 20, "size": 10, "track_total_hits": true, "sort": ["_score"], "_source": {"excludes": ["aisleVersion"]},
	"highlight": {"fields": {"name": {}}}, "aggs": {"f0": {"terms": {"field": "brand"}}}, "post_filter": {"term": {"color": "red"}},
	"collapse": {"field": "group", "inner_hits": {"name": "g", "size": 3}}}`

func decoded(b []byte, err error) map[string]any {
	GinkgoHelper()
	Expect(err).NotTo(HaveOccurred())
	var m map[string]any
	Expect(json.Unmarshal(b, &m)).To(Succeed())
	return m
}

var _ = Describe("The searches why not sends", func() {
	checks := []whynot.Check{{Kind: whynot.KindWord, Name: "desk", Query: map[string]any{"match": map[string]any{"name": "desk"}}},
		{Kind: whynot.KindFilter, Name: "filters", Query: map[string]any{"term": map[string]any{"brand": "Oak"}}}}

	It("probe the record with the search's own query and sort, for its ranking only", func() {
		p := decoded(whynot.Probe([]byte(searchBody), "x"))
		ids := map[string]any{"ids": map[string]any{"values": []any{"x"}}}
		Expect(p["query"]).To(Equal(map[string]any{"bool": map[string]any{"filter": []any{ids},
			"must": []any{decoded([]byte(searchBody), nil)["query"]}}}))
		Expect(p).To(HaveKeyWithValue("sort", []any{"_score"}))
		Expect(p).To(HaveKeyWithValue("size", 1.0))
		Expect(p).To(HaveKeyWithValue("_source", false))
		for _, k := range []string{"highlight", "collapse", "post_filter", "aggs"} {
			Expect(p).NotTo(HaveKey(k))
		}
	})

	It("check the record alone against each part of the search, its source returned", func() {
		c := decoded(whynot.Checks("x", checks))
		Expect(c).To(Equal(map[string]any{"query": map[string]any{"ids": map[string]any{"values": []any{"x"}}}, "size": 1.0, "track_total_hits": false,
			"aggs": map[string]any{"whynot": map[string]any{"filters": map[string]any{"filters": map[string]any{
				"c0": map[string]any{"match": map[string]any{"name": "desk"}},
				"c1": map[string]any{"term": map[string]any{"brand": "Oak"}},
			}}}}}))
		Expect(decoded(whynot.Checks("x", nil))).NotTo(HaveKey("aggs"), "a search with nothing to check")
	})

	It("read the first 1,000 hits of the search itself, IDs and group only, one per group", func() {
		w := decoded(whynot.Window([]byte(searchBody), "group"))
		Expect(w).To(HaveKeyWithValue("from", 0.0))
		Expect(w).To(HaveKeyWithValue("size", 1000.0))
		Expect(w).To(HaveKeyWithValue("_source", map[string]any{"includes": []any{"group"}}))
		Expect(w).To(HaveKeyWithValue("collapse", map[string]any{"field": "group"}))
		Expect(w).To(HaveKey("post_filter"), "the facetFilters decide the page")
		Expect(w).NotTo(HaveKey("aggs"))
		Expect(w).NotTo(HaveKey("highlight"))
		Expect(decoded(whynot.Window([]byte(searchBody), ""))).To(HaveKeyWithValue("_source", false))
	})

	It("take a search's text query from its body", func() {
		Expect(whynot.TextQuery([]byte(searchBody))).To(Equal(map[string]any{"match": map[string]any{"name": "desk"}}))
		Expect(whynot.TextQuery([]byte(`{"query": {"match_all": {}}}`))).To(BeNil())
	})

	It("read which checks the record fails, and its source", func() {
		ans := `{"hits": {"hits": [{"_id": "x", "_source": {"name": "Walnut dresser"}}]},
			"aggregations": {"whynot": {"buckets": {"c0": {"doc_count": 0}, "c1": {"doc_count": 1}}}}}`
		p, err := whynot.ReadChecks([]byte(ans), checks)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(whynot.ProbeAnswer{Exists: true, Failed: checks[:1], Source: map[string]any{"name": "Walnut dresser"}}))
		Expect(whynot.ReadChecks([]byte(`{"hits": {"hits": []}}`), checks)).To(Equal(whynot.ProbeAnswer{}))
		_, err = whynot.ReadChecks([]byte(`{"hits": {"hits": [{"_id": "x"}]}}`), checks)
		Expect(err).To(MatchError(ContainSubstring("no whynot aggregation")))
	})

	It("read the window's hits in order, with their group", func() {
		ans := `{"hits": {"hits": [{"_id": "a", "_source": {"group": "g1"}}, {"_id": "b", "_source": {}}]}}`
		Expect(whynot.ReadWindow([]byte(ans), "group")).To(Equal([]whynot.Ranked{{ID: "a", Group: "g1"}, {ID: "b"}}))
	})
})

var _ = Describe("The closest word a record holds", func() {
	src := map[string]any{"name": "Walnut Dresser", "tags": []any{"oak-table", 3.0}, "meta": map[string]any{"note": "desks"}, "brand": "Deskly"}
	DescribeTable("is the nearest by edit distance among its searchable fields' words",
		func(paths []string, word, want string) {
			Expect(whynot.Closest(word, whynot.WordsOf(src, paths))).To(Equal(want))
		},
		Entry("in one field", []string{"name"}, "desk", "dresser"),
		Entry("among arrays, split at punctuation", []string{"tags"}, "tablet", "table"),
		Entry("in a nested field", []string{"meta.note"}, "desk", "desks"),
		Entry("in every field when none is named", nil, "desk", "desks"),
		Entry("none when the fields hold no words", []string{"missing"}, "desk", ""),
	)
})
