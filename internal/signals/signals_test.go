package signals_test

import (
	"fmt"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/signals"
)

var weights = relevance.Weights{View: 1, Click: 2, AddToCart: 5, Purchase: 10}

// window puts counts in window i of the windows popularity is counted in.
func window(i int, c signals.Counts) []signals.Counts {
	out := make([]signals.Counts, len(signals.Windows))
	out[i] = c
	return out
}

var _ = Describe("Popularity", func() {
	It("weighs events by type and halves them every half-life", func() {
		p := relevance.Popularity{Enabled: true, Weights: weights, HalfLifeDays: 3}
		young := signals.Scores(window(0, signals.Counts{Purchase: map[string]int64{"a": 1}, Click: map[string]int64{"b": 1}}), p)
		Expect(young["a"]).To(BeNumerically("~", 10*math.Pow(0.5, 0.5/3), 1e-9))
		Expect(young["a"] / young["b"]).To(BeNumerically("~", 5, 1e-9))
		old := signals.Scores(window(3, signals.Counts{Purchase: map[string]int64{"a": 1}}), p) // days 4 to 8
		Expect(old["a"]).To(BeNumerically("~", 10*math.Pow(0.5, 2), 1e-9), "six days old, two half-lives")
	})

	It("cuts scores into levels by rank: equal scores share one, and one inflated product moves only itself", func() {
		levels := signals.Quantise(map[string]float64{"a": 100, "b": 5, "c": 5, "d": 1, "none": 0})
		Expect(levels[signals.Levels-1]).To(Equal([]string{"a"}))
		var bc int
		for l, ids := range levels {
			if len(ids) == 2 {
				Expect(ids).To(Equal([]string{"b", "c"}))
				bc = l
			}
		}
		Expect(bc).To(BeNumerically(">", 0))
		Expect(levels).NotTo(ContainElement(ContainElement("none")), "no events: level 0, in no document")
		spammed := signals.Quantise(map[string]float64{"a": 1e9, "b": 5, "c": 5, "d": 1})
		Expect(spammed).To(Equal(levels), "the same levels whatever a's score")
	})

	It("keeps every product with events above level 0, however many", func() {
		scores := map[string]float64{}
		for i := 0; i < 1000; i++ {
			scores[fmt.Sprint(i)] = float64(i + 1)
		}
		levels := signals.Quantise(scores)
		n := 0
		for l, ids := range levels {
			Expect(l).To(And(BeNumerically(">=", 1), BeNumerically("<", signals.Levels)))
			n += len(ids)
		}
		Expect(n).To(Equal(1000))
	})
})

var _ = Describe("Re-ranking attractiveness", func() {
	// byRange puts n clicks at the position range of index i (1, 2, 3-4, 5-8, 9-16, 17+).
	byRange := func(i int, n int64) []int64 {
		out := make([]int64, 6)
		out[i] = n
		return out
	}

	It("counts a click at position 8 for more than one at position 1", func() {
		a := signals.Attractiveness(signals.QueryClicks{Searches: 100, Clicks: map[string][]int64{
			"top": byRange(0, 10), "low": byRange(3, 10)}}, signals.Totals{}, 1)
		Expect(a["low"]).To(BeNumerically(">", a["top"]))
	})

	It("gives clicks made as often as shoppers look, at random, the same score wherever they were shown", func() {
		// Examination 1/sqrt(p): 100 searches look at position 1 100 times, at 6.5 about 39.
		a := signals.Attractiveness(signals.QueryClicks{Searches: 100, Clicks: map[string][]int64{
			"first": byRange(0, 30), "mid": byRange(3, int64(math.Round(30/math.Sqrt(6.5))))}}, signals.Totals{}, 1)
		Expect(a["mid"]).To(BeNumerically("~", a["first"], 0.02))
	})

	It("caps a flood of clicks at 1, shares purchases by clicks, and needs minSearches", func() {
		q := signals.QueryClicks{Searches: 10, Clicks: map[string][]int64{"flood": byRange(4, 5000), "bought": byRange(0, 1)}}
		a := signals.Attractiveness(q, signals.Totals{Clicks: map[string]int64{"bought": 2}, Bought: map[string]int64{"bought": 4}}, 5)
		Expect(a["flood"]).To(Equal(1.0))
		Expect(a["bought"]).To(BeNumerically("~", (1+signals.PurchaseClicks*4*0.5)/10, 1e-9))
		Expect(signals.Attractiveness(q, signals.Totals{}, 11)).To(BeEmpty())
	})
})
