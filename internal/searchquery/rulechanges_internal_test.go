package searchquery

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

var merchSettings = searchv1alpha1.IndexSettings{
	Ranking:          everyCriterion,
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 2}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand"},
	CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: "desc"}},
}

var merchSchema = Schema{
	"name":  {Path: "name", Kind: KindString, Keyword: "name.keyword", Words: true},
	"brand": {Path: "brand", Kind: KindString, Keyword: "brand.keyword"},
}

func brandIs(v string) any { return map[string]any{"term": map[string]any{"brand.keyword": v}} }

// merchBody builds q with m and returns the plan and its body.
func merchBody(q string, r Access, m *RuleChanges) (Plan, map[string]any) {
	plan, err := BuildWith(Request{Q: q, Explain: Explain{On: !r.Public}}, r, merchSchema, Inputs{RuleChanges: m})
	Expect(err).NotTo(HaveOccurred())
	var body map[string]any
	Expect(json.Unmarshal(plan.Bodies.Search, &body)).To(Succeed())
	return plan, body
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("The rules' band of the score", func() {
	DescribeTable("sits right after typo, after words without typo, first without either",
		func(ranking []searchv1alpha1.RankingCriterion, want []searchv1alpha1.RankingCriterion) {
			Expect(withRulesBand(ranking)).To(Equal(want))
		},
		Entry("the default ranking", relevance.DefaultRanking, []searchv1alpha1.RankingCriterion{critSort, critWords, critTypo, critRules, critExact, critCustom}),
		Entry("every criterion", everyCriterion, []searchv1alpha1.RankingCriterion{critSort, critWords, critTypo, critRules, critProximity, critAttribute, critExact, critCustom}),
		Entry("no typo", []searchv1alpha1.RankingCriterion{critWords, critExact}, []searchv1alpha1.RankingCriterion{critWords, critRules, critExact}),
		Entry("neither", []searchv1alpha1.RankingCriterion{critCustom, critExact}, []searchv1alpha1.RankingCriterion{critRules, critCustom, critExact}),
	)

	It("scores a boost's matches and a bury's non-matches by their weights at the band's base", func() {
		tp, band := newTextPlan(Request{Q: "red shoe", MatchingStrategy: StrategyAll}, KeyedAccess(merchSettings), merchSchema, 0, nil).
			withMerch(KeyedAccess(merchSettings), &RuleChanges{Boost: []Weighted{{brandIs("a"), 3}}, Bury: []Weighted{{brandIs("b"), 2}}}, nil)
		base := tp.radix.base(critRules)
		Expect(base).To(Equal(tp.radix.base(critProximity) * tp.radix.bands[2].size))
		Expect(band.size).To(Equal(int64(6)))
		Expect(band.clauses(tp.radix)).To(Equal([]any{
			constant(brandIs("a"), 3*base),
			constant(map[string]any{"bool": map[string]any{"must_not": []any{brandIs("b")}}}, 2*base),
		}))
	})

	It("scales the weights down to the room the score has left, and keeps every score exact in float32", func() {
		var many []Weighted
		for i := 0; i < 200; i++ {
			many = append(many, Weighted{brandIs("x"), 10})
		}
		long := Request{Q: "one two three four five six seven eight nine tenth", MatchingStrategy: StrategyAny}
		tp, band := newTextPlan(long, KeyedAccess(merchSettings), merchSchema, 0, nil).withMerch(KeyedAccess(merchSettings), &RuleChanges{Boost: many}, nil)
		Expect(band.size).To(BeNumerically("<", 2001))
		Expect(band.size).To(BeNumerically(">", 1))
		product := int64(1)
		for _, b := range tp.radix.bands {
			product *= b.size
		}
		Expect(product).To(BeNumerically("<=", scoreLimit))
	})

	It("ranks a search without words by the band alone, after the request's sort", func() {
		_, body := merchBody("", KeyedAccess(merchSettings), &RuleChanges{Boost: []Weighted{{brandIs("a"), 1}}})
		Expect(jsonOf(body["query"].(map[string]any)["bool"].(map[string]any)["must"])).To(MatchJSON(
			`[{"bool": {"filter": [{"match_all": {}}], "should": [{"constant_score": {"filter": {"term": {"brand.keyword": "a"}}, "boost": 1}}]}}]`))
	})

	It("shows in explain the weight a hit got: boosts matched less buries matched", func() {
		plan, _ := merchBody("", KeyedAccess(merchSettings), &RuleChanges{Boost: []Weighted{{brandIs("a"), 3}}, Bury: []Weighted{{brandIs("b"), 2}}})
		for score, want := range map[float64]int{5: 3, 2: 0, 0: -2, 3: 1} {
			Expect(*plan.Shaping.explain.ranking([]json.RawMessage{json.RawMessage(jsonOf(score))}, nil).Rules).To(Equal(want), "score %v", score)
		}
	})

	It("adds no band, and no rules to explain, without boosts or buries", func() {
		plan, _ := merchBody("shoe", KeyedAccess(merchSettings), &RuleChanges{Hide: []string{"h"}})
		Expect(plan.Shaping.explain.radix.has(critRules)).To(BeFalse())
		Expect(plan.Shaping.explain.ranking(nil, nil).Rules).To(BeNil())
	})
})

var _ = Describe("What the rules change in a search's body", func() {
	It("ANDs their filters with the request's and keeps hidden records out of hits and facets", func() {
		_, body := merchBody("shoe", KeyedAccess(merchSettings), &RuleChanges{Filters: []any{brandIs("a")}, Hide: []string{"h1", "h2"}})
		q := body["query"].(map[string]any)["bool"].(map[string]any)
		Expect(jsonOf(q["filter"])).To(MatchJSON(`[{"term": {"brand.keyword": "a"}}]`))
		Expect(jsonOf(q["must_not"])).To(MatchJSON(`[{"ids": {"values": ["h1", "h2"]}}]`))
		Expect(body).NotTo(HaveKey("post_filter"))
	})

	It("keeps promoted records out of the organic hits only, and fetches them apart through every filter, in the window's places", func() {
		plan, body := merchBody("shoe", PublicAccess(merchSettings, searchv1alpha1.PublicSearchPolicy{
			RetrievableFields: []searchv1alpha1.FieldPath{"name"},
			ForcedFilters:     []searchv1alpha1.FilterCondition{{Field: "brand", Values: []string{"a"}}}}),
			&RuleChanges{Promoted: []string{"p1", "p2"}, Hide: []string{"h"}, Window: &Window{From: 3, Size: 7}})
		Expect(jsonOf(body["post_filter"])).To(MatchJSON(`{"bool": {"must_not": [{"terms": {"objectID": ["p1", "p2"]}}]}}`))
		Expect(body["from"]).To(BeNumerically("==", 3))
		Expect(body["size"]).To(BeNumerically("==", 7))
		var pinned map[string]any
		Expect(json.Unmarshal(plan.Bodies.Pinned, &pinned)).To(Succeed())
		q := pinned["query"].(map[string]any)["bool"].(map[string]any)
		Expect(jsonOf(q["filter"])).To(MatchJSON(`[{"ids": {"values": ["p1", "p2"]}}, {"terms": {"brand.keyword": ["a"]}}]`))
		Expect(q).NotTo(HaveKey("should"), "their places are the rules': the text does not score them")
		words := map[string]any{"bool": map[string]any{"should": body["query"].(map[string]any)["bool"].(map[string]any)["must"]}}
		Expect(jsonOf(pinned["highlight"].(map[string]any)["highlight_query"])).To(MatchJSON(jsonOf(words)), "the words mark their fields")
		Expect(jsonOf(q["must_not"])).To(MatchJSON(`[{"ids": {"values": ["h"]}}]`))
		Expect(pinned["_source"]).To(Equal(body["_source"]), "a browser sees the same fields of them")
		Expect(pinned["size"]).To(BeNumerically("==", 2))
	})

	It("plans a page with promoted records for the window of organic hits it is told, else the page's", func() {
		plan, body := merchBody("shoe", KeyedAccess(merchSettings), &RuleChanges{Promoted: []string{"p"}})
		Expect(body["from"]).To(BeNumerically("==", 0))
		Expect(body["size"]).To(BeNumerically("==", 20))
		Expect(plan.Shaping.Organic).To(Equal(Window{From: 0, Size: 20}))
		plan, body = merchBody("shoe", KeyedAccess(merchSettings), &RuleChanges{Promoted: []string{"p"}, Window: &Window{From: 5, Size: 9}})
		Expect(body["from"]).To(BeNumerically("==", 5))
		Expect(body["size"]).To(BeNumerically("==", 9))
		Expect(plan.Shaping.Organic).To(Equal(Window{From: 5, Size: 9}))
	})

	It("ANDs the promoted records' exclusion with a post_filter the body has already", func() {
		body := searchBody{PostFilter: brandIs("x")}
		m := &RuleChanges{Promoted: []string{"p"}}
		arranged, _, _, err := m.arrange(body, Window{Size: 20}, m.promotedOut())
		Expect(err).NotTo(HaveOccurred())
		Expect(body.PostFilter).To(Equal(brandIs("x")), "the body it was given is left as it was")
		Expect(jsonOf(arranged.PostFilter)).To(MatchJSON(`{"bool": {"filter": [{"term": {"brand.keyword": "x"}}, {"bool": {"must_not": [{"terms": {"objectID": ["p"]}}]}}]}}`))
	})

	It("passes the promoted records through the shopper's facetFilters (the post_filter), and counts their groups once", func() {
		body := searchBody{PostFilter: brandIs("x")}
		m := &RuleChanges{Promoted: []string{"p"}}
		_, pinned, _, err := m.arrange(body, Window{Size: 20}, m.promotedOut())
		Expect(err).NotTo(HaveOccurred())
		var p map[string]any
		Expect(json.Unmarshal(pinned, &p)).To(Succeed())
		Expect(jsonOf(p["query"].(map[string]any)["bool"].(map[string]any)["filter"])).
			To(MatchJSON(`[{"ids": {"values": ["p"]}}, {"term": {"brand.keyword": "x"}}]`))
		groups := (&distinctPlan{field: "group"}).countAgg(selection{"brand": brandIs("x")}, m.promotedOut())
		Expect(jsonOf(groups["filter"])).
			To(MatchJSON(`{"bool": {"filter": [{"term": {"brand.keyword": "x"}}, {"bool": {"must_not": [{"terms": {"objectID": ["p"]}}]}}]}}`))
		Expect(jsonOf((&distinctPlan{field: "group"}).countAgg(selection{"brand": brandIs("x")}, (*RuleChanges)(nil).promotedOut())["filter"])).
			To(MatchJSON(`{"term": {"brand.keyword": "x"}}`), "without promoted records, the selections alone")
	})

	It("leaves the body as it was without rules", func() {
		plain, _ := merchBody("shoe", KeyedAccess(merchSettings), nil)
		empty, _ := merchBody("shoe", KeyedAccess(merchSettings), &RuleChanges{})
		Expect(plain.Bodies.Search).To(MatchJSON(empty.Bodies.Search))
		Expect(plain.Bodies.Pinned).To(BeNil())
	})

	It("refuses enableRules false from a browser, and takes it with a key", func() {
		off := false
		_, err := Build(Request{EnableRules: &off}, PublicAccess(merchSettings, searchv1alpha1.PublicSearchPolicy{}), merchSchema)
		Expect(err).To(MatchError(ContainSubstring("enableRules: is only available with a key")))
		_, err = Build(Request{EnableRules: &off}, KeyedAccess(merchSettings), merchSchema)
		Expect(err).NotTo(HaveOccurred())
	})

	It("builds a rule's filter as a keyed search's, naming its problems at the rule's place", func() {
		q, probs := RuleFilter(&Filter{Field: "brand", Eq: "a"}, "consequence.filters", merchSettings, merchSchema)
		Expect(probs).To(BeEmpty())
		Expect(q).To(Equal(brandIs("a")))
		_, probs = RuleFilter(&Filter{Field: "name", Eq: "a"}, "consequence.filters", merchSettings, merchSchema)
		Expect(probs).To(ConsistOf(`consequence.filters.field: "name" is not a filterable field (filterable fields: brand)`))
	})
})
