package searchquery

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

var _ = Describe("Words weighed by how few records hold them", func() {
	DescribeTable("give each unit its idf's share of about four levels a word",
		func(df []int64, want []int) {
			Expect(wordWeights(df, 10_000)).To(Equal(want))
		},
		Entry("a rare word outweighs a common one", []int64{5, 5_000}, []int{7, 1}),
		Entry("equally common words weigh the same", []int64{100, 100, 100}, []int{4, 4, 4}),
		Entry("a word no record holds weighs nothing", []int64{0, 100}, []int{0, 8}),
		Entry("nothing held: nothing weighs", []int64{0, 0}, []int{0, 0}),
	)

	plan := func(q string, stats WordStats) textPlan {
		s := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 2}, {Path: "description"}}}
		return newWeighedPlan(Request{Q: q}, KeyedAccess(s), nil, 0, nil, stats, true)
	}
	freq := func(q string, df ...int64) WordStats {
		p := plan(q, WordStats{})
		ws := WordStats{Records: 1000, Freq: map[string]int64{}}
		i := 0
		for _, u := range p.units {
			normal, relaxed := p.countClauses(u)
			ws.Freq[clauseKey(normal)] = df[i]
			i++
			if relaxed != nil {
				ws.Freq[clauseKey(relaxed)] = df[i]
				i++
			}
		}
		return ws
	}

	It("ignores a word no record holds, naming it, and keeps the others' weights", func() {
		p := plan("walnut unicorniums ", freq("walnut unicorniums ", 10, 0, 0))
		Expect(p.weights).To(Equal([]int{8, 0}))
		Expect(p.words.ignored).To(Equal([]string{"unicorniums"}))
		Expect(p.sizes()[critWords]).To(BeEquivalentTo(9))
	})

	It("matches a word no record holds by its relaxed clause when that one matches", func() {
		p := plan("fragon book ", freq("fragon book ", 0, 3, 40))
		Expect(p.relaxed).To(Equal([]bool{true, false}))
		Expect(p.words.ignored).To(BeEmpty())
		Expect(p.weights[0]).To(BeNumerically(">", p.weights[1]), "three records hold dragon, forty book")
	})

	It("relaxes only words of five letters or more that may carry one typo", func() {
		for q, relaxes := range map[string]bool{"bamp ": false, "fragon ": true, "kontroller ": false, "12345 ": false} {
			p := plan(q, WordStats{})
			_, relaxed := p.countClauses(p.units[0])
			Expect(relaxed != nil).To(Equal(relaxes), q)
		}
	})

	It("scales BM25 below the fraction the bands leave, for every word it can weigh", func() {
		p := plan("red shoe ", WordStats{Records: 1000})
		Expect(p.tail).NotTo(BeNil())
		Expect(p.tail.boost * 2 * 4 * idf(1, 1000)).To(BeNumerically("~", tailShare, 1e-9))
		Expect(p.radix.total()).To(BeNumerically("<=", tailLimit))
	})

	It("leaves BM25 out when the bands leave float32 no room for a fraction", func() {
		s := searchv1alpha1.IndexSettings{Ranking: everyCriterion}
		for w := int32(1); w <= 8; w++ {
			s.SearchableFields = append(s.SearchableFields, searchv1alpha1.SearchableField{Path: searchv1alpha1.FieldPath("f" + string(rune('a'+w))), Weight: w})
		}
		p := newWeighedPlan(Request{Q: "one two three four five six seven eight nine tenth"}, KeyedAccess(s), nil, 0, nil, WordStats{}, true)
		Expect(p.radix.total()).To(BeNumerically(">", tailLimit))
		Expect(p.tail).To(BeNil())
	})
})

var _ = Describe("Negations in a query", func() {
	english := relevance.StopsOf(searchv1alpha1.IndexSettings{})
	neg := relevance.NegationsOf(searchv1alpha1.IndexSettings{})
	DescribeTable("take the negated word and its marker out of the words to match",
		func(q string, kept []string, negated ...string) {
			qw := parseWords(q, english, neg, 0)
			Expect(keptOf(qw)).To(Equal(kept))
			var got []string
			for _, n := range qw.negated {
				got = append(got, n.marker.text+":"+n.word.text)
			}
			if len(negated) == 0 {
				Expect(got).To(BeEmpty())
				return
			}
			Expect(got).To(Equal(negated))
		},
		Entry("without before", "marshmallows without gelatin", []string{"marshmallows"}, "without:gelatin"),
		Entry("no before, a stop word", "no show socks", []string{"socks"}, "no:show"),
		Entry("free after", "gluten free pasta", []string{"pasta"}, "free:gluten"),
		Entry("a marker with nothing to negate", "socks without", []string{"socks", "without"}),
		Entry("nothing else left to match", "gluten free", []string{"gluten", "free"}),
	)
})
