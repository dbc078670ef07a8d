package searchquery_test

import (
	"encoding/json"
	"errors"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

func shopPlan(body string) searchquery.Plan {
	plan, err := searchquery.Build(decode(body), searchquery.KeyedAccess(shopSettings), shopSchema)
	Expect(err).NotTo(HaveOccurred())
	return plan
}

var _ = Describe("Distinct", func() {
	keyed := searchquery.KeyedAccess(shopSettings)

	It("collapses on the setting's field and counts the groups, those of records without it included", func() {
		m := buildShop(`{"facets": ["brand"]}`, keyed)
		Expect(toJSON(m["collapse"])).To(MatchJSON(`{"field": "groupId.keyword"}`))
		Expect(toJSON(m["aggs"].(map[string]any)["groups"])).To(MatchJSON(`{"filter": {"match_all": {}}, "aggs": {
			"n": {"cardinality": {"field": "groupId.keyword", "precision_threshold": 40000}},
			"missing": {"filter": {"bool": {"must_not": [{"exists": {"field": "groupId.keyword"}}]}}}}}`))
		Expect(toJSON(m["aggs"].(map[string]any)["f0"])).To(MatchJSON(`{"terms": {"field": "brand.keyword", "size": 10}}`), "facets count records")
	})

	It("reads the group's next records for a larger limit and for variants, in the hits' sort", func() {
		m := buildShop(`{"q": "shoe", "distinct": 2, "variantsLimit": 3, "fields": ["name"], "facetFilters": {"brand": ["acme"]}}`, keyed)
		c := m["collapse"].(map[string]any)
		inner := c["inner_hits"].(map[string]any)
		Expect(inner["name"]).To(Equal("group"))
		Expect(inner["size"]).To(BeEquivalentTo(4))
		Expect(toJSON(inner["sort"])).To(Equal(toJSON(m["sort"])))
		Expect(toJSON(inner["_source"])).To(Equal(toJSON(m["_source"])))
		Expect(toJSON(inner["highlight"])).To(Equal(toJSON(m["highlight"])))
		Expect(toJSON(m["aggs"].(map[string]any)["groups"].(map[string]any)["filter"])).To(MatchJSON(`{"term": {"brand.keyword": "acme"}}`),
			"groups are counted among the records matching every selection")
	})

	DescribeTable("is turned off, or left to the setting, by the request",
		func(body string, collapsed bool) {
			_, has := buildShop(body, keyed)["collapse"]
			Expect(has).To(Equal(collapsed))
		},
		Entry("absent: the setting", `{}`, true),
		Entry("true: the setting", `{"distinct": true}`, true),
		Entry("false", `{"distinct": false}`, false),
		Entry("0", `{"distinct": 0}`, false),
		Entry("a number", `{"distinct": 3}`, true),
	)

	It("groups nothing when no record holds the field yet", func() {
		plan, err := searchquery.Build(decode(`{}`), keyed, schema)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(plan.Bodies.Search)).NotTo(ContainSubstring("collapse"))
		Expect(plan.Bodies.Merge).To(BeNil(), "nor has it a merge round to send")
	})

	DescribeTable("refuses what it cannot do, naming the place",
		func(body string, r searchquery.Access, message string) {
			_, err := searchquery.Build(decode(body), r, shopSchema)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			Expect(err).To(MatchError(ContainSubstring(message)))
		},
		Entry("more than 10 hits a group", `{"distinct": 11}`, keyed, "distinct: must be true, false or a number of hits per group from 0 to 10"),
		Entry("a negative number", `{"distinct": -1}`, keyed, "distinct: must be true, false or a number"),
		Entry("true without a setting", `{"distinct": true}`, searchquery.KeyedAccess(settings), "distinct: the index has no distinct setting"),
		Entry("a number without a setting", `{"distinct": 2}`, searchquery.KeyedAccess(settings), "distinct: the index has no distinct setting"),
		Entry("more than 20 variants", `{"variantsLimit": 21}`, keyed, "variantsLimit: must be between 0 and 20"),
		Entry("negative variants", `{"variantsLimit": -1}`, keyed, "variantsLimit: must be between 0 and 20"),
	)

	DescribeTable("is read from true, false or a whole number only",
		func(raw string, ok bool) {
			var d searchquery.Distinct
			err := json.Unmarshal([]byte(raw), &d)
			Expect(err == nil).To(Equal(ok), "%s: %v", raw, err)
		},
		Entry("true", `true`, true), Entry("false", `false`, true), Entry("a number", `2`, true),
		Entry("a fraction", `1.5`, false), Entry("a string", `"2"`, false), Entry("null in an array", `[null]`, false),
		Entry("an object", `{}`, false), Entry("a huge number", `1e300`, false),
	)
})

var _ = Describe("Shaping a distinct search", func() {
	// Groups A (a3, a2, a1) and B (b2, b1), best first.
	answer := []byte(`{"hits": {"total": {"value": 5}, "hits": [
		{"_id": "a3", "_source": {"objectID": "a3"}, "fields": {"groupId.keyword": ["A"]}, "inner_hits": {"group": {"hits": {"hits": [
			{"_id": "a3", "_source": {"objectID": "a3"}}, {"_id": "a2", "_source": {"objectID": "a2"}}, {"_id": "a1", "_source": {"objectID": "a1"}}]}}}},
		{"_id": "b2", "_source": {"objectID": "b2"}, "fields": {"groupId.keyword": ["B"]}, "inner_hits": {"group": {"hits": {"hits": [
			{"_id": "b2", "_source": {"objectID": "b2"}}, {"_id": "b1", "_source": {"objectID": "b1"}}]}}}}]},
		"aggregations": {"groups": {"doc_count": 5, "n": {"value": 2}, "missing": {"doc_count": 0}}}}`)

	ids := func(res searchquery.Response) []string {
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.ObjectID)
		}
		return out
	}

	It("counts groups, and gives each hit the other records of its group as variants", func() {
		res, err := searchquery.Shape(shopPlan(`{"variantsLimit": 1}`).Shaping, answer)
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Total).To(BeEquivalentTo(2))
		Expect(ids(res)).To(Equal([]string{"a3", "b2"}))
		Expect(toJSON(res.Hits[0].Variants)).To(MatchJSON(`[{"objectID": "a2", "record": {"objectID": "a2"}}]`))
	})

	It("puts a group's next hits after its best one, up to the limit", func() {
		res, err := searchquery.Shape(shopPlan(`{"distinct": 2, "variantsLimit": 5}`).Shaping, answer)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(res)).To(Equal([]string{"a3", "a2", "b2", "b1"}))
		Expect(toJSON(res.Hits[1].Variants)).To(MatchJSON(`[{"objectID": "a3", "record": {"objectID": "a3"}}, {"objectID": "a1", "record": {"objectID": "a1"}}]`))
		Expect(res.Hits[3].Variants).To(HaveLen(1))
	})

	It("needs no merge round when every matching record holds the field", func() {
		ungrouped, err := shopPlan(`{}`).Shaping.Ungrouped(answer)
		Expect(err).NotTo(HaveOccurred())
		Expect(ungrouped).To(BeFalse())
	})

	Describe("with records without the field", func() {
		first := []byte(`{"hits": {"total": {"value": 7}, "hits": []}, "aggregations": {"f0": {"buckets": [{"key": "acme", "doc_count": 7}]},
			"groups": {"doc_count": 7, "n": {"value": 2}, "missing": {"doc_count": 2}}}}`)
		// Sorted by price desc then objectID: groups B (55), A (14); singles n2 (20), n1 (5).
		grouped := []byte(`{"hits": {"hits": [
			{"_id": "b2", "_source": {"objectID": "b2"}, "sort": [55, "b2"], "inner_hits": {"group": {"hits": {"hits": [
				{"_id": "b2", "_source": {"objectID": "b2"}}, {"_id": "b1", "_source": {"objectID": "b1"}}]}}}},
			{"_id": "a3", "_source": {"objectID": "a3"}, "sort": [14, "a3"], "inner_hits": {"group": {"hits": {"hits": [
				{"_id": "a3", "_source": {"objectID": "a3"}}]}}}}]}}`)
		single := []byte(`{"hits": {"hits": [{"_id": "n2", "_source": {"objectID": "n2"}, "sort": [20, "n2"]},
			{"_id": "n1", "_source": {"objectID": "n1"}, "sort": [5, "n1"]}]}}`)

		It("asks for a merge round of the grouped and the single records from the first hit", func() {
			plan := shopPlan(`{"facets": ["brand"], "offset": 1, "limit": 2, "facetFilters": {"brand": ["acme"]}}`)
			ungrouped, err := plan.Shaping.Ungrouped(first)
			Expect(err).NotTo(HaveOccurred())
			Expect(ungrouped).To(BeTrue())
			Expect(plan.Bodies.Merge).NotTo(BeNil())
			gm, sm := fromJSON(plan.Bodies.Merge.Grouped), fromJSON(plan.Bodies.Merge.Single)
			Expect(gm["from"]).To(BeEquivalentTo(0))
			Expect(gm["size"]).To(BeEquivalentTo(3))
			Expect(gm).NotTo(HaveKey("aggs"))
			Expect(gm).To(HaveKey("collapse"))
			Expect(toJSON(gm["post_filter"])).To(MatchJSON(`{"bool": {"filter": [{"term": {"brand.keyword": "acme"}}, {"exists": {"field": "groupId.keyword"}}]}}`))
			Expect(sm).NotTo(HaveKey("collapse"))
			Expect(toJSON(sm["post_filter"])).To(MatchJSON(`{"bool": {"filter": [{"term": {"brand.keyword": "acme"}},
				{"bool": {"must_not": [{"exists": {"field": "groupId.keyword"}}]}}]}}`))
		})

		It("keeps the records a rule promoted out of the merge round, as out of the first", func() {
			plan, err := searchquery.BuildWith(decode(`{"facetFilters": {"brand": ["acme"]}}`), searchquery.KeyedAccess(shopSettings), shopSchema,
				searchquery.Inputs{RuleChanges: &searchquery.RuleChanges{Promoted: []string{"p"}}})
			Expect(err).NotTo(HaveOccurred())
			Expect(plan.Bodies.Merge).NotTo(BeNil())
			g, s := plan.Bodies.Merge.Grouped, plan.Bodies.Merge.Single
			base := `{"bool": {"filter": [{"term": {"brand.keyword": "acme"}}, {"bool": {"must_not": [{"terms": {"objectID": ["p"]}}]}}]}}`
			Expect(toJSON(fromJSON(g)["post_filter"])).To(MatchJSON(`{"bool": {"filter": [` + base + `, {"exists": {"field": "groupId.keyword"}}]}}`))
			Expect(toJSON(fromJSON(s)["post_filter"])).To(MatchJSON(`{"bool": {"filter": [` + base + `,
				{"bool": {"must_not": [{"exists": {"field": "groupId.keyword"}}]}}]}}`))
		})

		It("cuts the page from both merged by their sort values, each single record a group", func() {
			plan := shopPlan(`{"sort": [], "facets": ["brand"], "offset": 1, "limit": 2}`)
			res, err := searchquery.ShapeMerged(plan.Shaping, first, grouped, single)
			Expect(err).NotTo(HaveOccurred())
			Expect(res.Total).To(BeEquivalentTo(4))
			// Merged by the first sort key (the score, desc, in this plan's sort).
			Expect(ids(res)).To(Equal([]string{"n2", "a3"}))
			Expect(res.Facets["brand"]).To(HaveLen(1))
		})
	})
})

var _ = Describe("Merging by sort values", func() {
	DescribeTable("orders as Elasticsearch sorts, a missing value last either way",
		func(a, b string, desc []bool, want int) {
			var x, y []json.RawMessage
			Expect(json.Unmarshal([]byte(a), &x)).To(Succeed())
			Expect(json.Unmarshal([]byte(b), &y)).To(Succeed())
			Expect(searchquery.CompareSort(x, y, desc)).To(Equal(want))
		},
		Entry("a higher score first", `[3.5, "a"]`, `[2, "b"]`, []bool{true, false}, -1),
		Entry("a tie broken by objectID", `[2, "b"]`, `[2, "a"]`, []bool{true, false}, 1),
		Entry("a lower price first, ascending", `[5, "z"]`, `[10, "a"]`, []bool{false, false}, -1),
		Entry("null last ascending", `[null, "a"]`, `["x", "b"]`, []bool{false, false}, 1),
		Entry("null last descending", `["x", "a"]`, `[null, "b"]`, []bool{true, false}, -1),
		Entry("a missing double last", `["Infinity", "a"]`, `[7, "b"]`, []bool{false, false}, 1),
		Entry("strings by their bytes", `["Zebra", "a"]`, `["apple", "b"]`, []bool{false, false}, -1),
		Entry("equal", `[1, "a"]`, `[1, "a"]`, []bool{false, false}, 0),
	)
})
