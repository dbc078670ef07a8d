package signals

import (
	"math"
	"sort"

	"github.com/aislehq/aisle/internal/relevance"
)

// Popularity is computed from counts per age window rather than per event: the events
// of a window count with the decay of its middle age. Windows double in width (the
// first day, the second, days 2 to 4, ... up to 128 days, past the three months events
// are kept), so a product's popularity is within a factor 2^(w/2/halfLife) of the exact
// decayed sum, for a window of width w: tight where the events are young and matter.

// Window is an age range in days, [From, To).
type Window struct{ From, To float64 }

// Windows are the age windows popularity is counted in.
var Windows = []Window{{0, 1}, {1, 2}, {2, 4}, {4, 8}, {8, 16}, {16, 32}, {32, 64}, {64, 128}}

// decay is what an event of the window's middle age counts for.
func (w Window) decay(halfLifeDays int) float64 {
	return math.Pow(0.5, (w.From+w.To)/2/float64(halfLifeDays))
}

// Counts are one window's events per product, by type; past orders count as purchases.
type Counts struct {
	View, Click, AddToCart, Purchase map[string]int64
}

// Scores sums, per product, each window's events weighed by type and decayed by age;
// counts[i] is the window Windows[i].
func Scores(counts []Counts, p relevance.Popularity) map[string]float64 {
	out := map[string]float64{}
	for i, c := range counts {
		d := Windows[i].decay(p.HalfLifeDays)
		for _, t := range []struct {
			ids    map[string]int64
			weight int
		}{{c.View, p.Weights.View}, {c.Click, p.Weights.Click}, {c.AddToCart, p.Weights.AddToCart}, {c.Purchase, p.Weights.Purchase}} {
			for id, n := range t.ids {
				if v := float64(n) * float64(t.weight) * d; v > 0 {
					out[id] += v
				}
			}
		}
	}
	return out
}

// Quantise cuts scores into levels 1 to Levels-1 by rank: the most popular products get
// the top level, and each level below holds about as many products as the one above, so
// the levels keep the products' order whatever the spread of their scores. Equal scores
// share a level. By rank, not by value: a product whose events are inflated (one
// visitor clicking it over and over) rises to the top level alone, and the others keep
// their levels. Each level holds at most MaxLevelIDs products, the least popular of a
// fuller level left at level 0.
func Quantise(scores map[string]float64) map[int][]string {
	ids := make([]string, 0, len(scores))
	for id, s := range scores {
		if s > 0 {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool {
		if scores[ids[i]] != scores[ids[j]] {
			return scores[ids[i]] > scores[ids[j]]
		}
		return ids[i] < ids[j]
	})
	out := map[int][]string{}
	top := Levels - 1
	level, firstOfScore := top, 0
	for i, id := range ids {
		if i > 0 && scores[id] != scores[ids[i-1]] {
			firstOfScore = i
		}
		level = top - firstOfScore*top/len(ids)
		if len(out[level]) < MaxLevelIDs {
			out[level] = append(out[level], id)
		}
	}
	return out
}
