package searchquery

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

type sizes = map[searchv1alpha1.RankingCriterion]int64

// everyCriterion is a ranking with every text criterion, so that each has its band.
var everyCriterion = []searchv1alpha1.RankingCriterion{critSort, critWords, critTypo, critProximity, critAttribute, critExact, critCustom}

var _ = Describe("The score's radix", func() {
	It("gives each criterion a base: the product of the sizes after it, in ranking order", func() {
		r := newRadix(everyCriterion, sizes{critWords: 3, critTypo: 5, critProximity: 3, critAttribute: 3, critExact: 3}, nil)
		Expect(r.bands).To(Equal([]band{
			{critWords, 3, 135}, {critTypo, 5, 27}, {critProximity, 3, 9}, {critAttribute, 3, 3}, {critExact, 3, 1},
		}))
	})

	It("leaves out a criterion of one level, and one the ranking leaves out", func() {
		r := newRadix([]searchv1alpha1.RankingCriterion{critExact, critTypo}, sizes{critWords: 1, critTypo: 5, critExact: 3}, nil)
		Expect(r.bands).To(Equal([]band{{critExact, 3, 5}, {critTypo, 5, 1}}))
		Expect(r.base(critWords)).To(BeZero())
	})

	It("gives a quantized criterion the room left, at most 32 levels", func() {
		r := newRadix([]searchv1alpha1.RankingCriterion{critWords, critCustom, critExact}, sizes{critWords: 11, critExact: 11}, []searchv1alpha1.RankingCriterion{critCustom})
		Expect(r.bands).To(Equal([]band{{critWords, 11, 352}, {critCustom, 32, 11}, {critExact, 11, 1}}))
	})

	It("decodes a score into the levels it was built from", func() {
		r := newRadix(everyCriterion, sizes{critWords: 3, critTypo: 5, critProximity: 3, critAttribute: 3, critExact: 3}, nil)
		score := float64(r.boost(levels{words: 2, typo: 3, attribute: 1, exact: 2}) + 1*r.base(critProximity))
		Expect(r.decode(score)).To(Equal(map[searchv1alpha1.RankingCriterion]int64{
			critWords: 2, critTypo: 3, critProximity: 1, critAttribute: 1, critExact: 2}))
	})

	It("keeps every score of ten words, eight field ranks and a quantized band exact in float32", func() {
		s := searchv1alpha1.IndexSettings{Ranking: []searchv1alpha1.RankingCriterion{critWords, critCustom, critTypo, critProximity, critAttribute, critExact}}
		for w := int32(1); w <= 9; w++ {
			s.SearchableFields = append(s.SearchableFields, searchv1alpha1.SearchableField{Path: searchv1alpha1.FieldPath("f" + string(rune('a'+w))), Weight: w})
		}
		tp := newTextPlan(Request{Q: "one two three four five six seven eight nine tenth", MatchingStrategy: StrategyAny}, KeyedAccess(s), nil, 0, []searchv1alpha1.RankingCriterion{critCustom})
		product := int64(1)
		for _, b := range tp.radix.bands {
			product *= b.size
		}
		Expect(product).To(BeNumerically("<=", scoreLimit))
		Expect(tp.radix.has(critCustom)).To(BeTrue(), "some room is left for custom levels")
		top := product - 1
		Expect(float64(float32(top))).To(Equal(float64(top)))
	})
})

var _ = Describe("The bands of a query", func() {
	s := searchv1alpha1.IndexSettings{Ranking: everyCriterion,
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "brand", Weight: 2}, {Path: "description"}}}
	plan := func(q, strategy string) textPlan {
		return newTextPlan(Request{Q: q, MatchingStrategy: strategy}, KeyedAccess(s), nil, 0, nil)
	}

	DescribeTable("are sized from the number of words, pairs and field ranks",
		func(q, strategy string, want sizes) {
			Expect(plan(q, strategy).sizes()).To(Equal(want))
		},
		Entry("one word, all", "shoe", StrategyAll, sizes{critTypo: 3, critAttribute: 3, critExact: 2}),
		// Proximity: 0 to 3 a pair (side by side, within slop 2, within slop 8).
		Entry("two words, any", "red shoe", StrategyAny, sizes{critWords: 3, critTypo: 5, critProximity: 4, critAttribute: 5, critExact: 3}),
		Entry("short words have no typo band", "red tee", StrategyAll, sizes{critProximity: 4, critAttribute: 5, critExact: 3}),
		Entry("last", "walnut desk lamp", StrategyLast, sizes{critWords: 4, critTypo: 7, critProximity: 7, critAttribute: 7, critExact: 4}),
	)
})
