package signals

import "math"

// Re-ranking estimates, per query, how attractive each record is when a shopper looks
// at it, from the clicks it got at the positions it was shown at. Shoppers look at the
// first results more than at the later ones (position bias), so a click at position 8
// says more than one at position 1. The model is the examination hypothesis: a shopper
// examines position p with probability e(p) = 1/sqrt(p) and clicks an examined record
// with probability a, its attractiveness. Over N searches of the query, a record shown
// at p gets about N·e(p)·a clicks; each click weighed by 1/e(p) = sqrt(p) (inverse
// propensity weighting) sums to about N·a whatever the positions it was shown at:
//
//	a ≈ min(1, (Σ_clicks sqrt(position) + PurchaseClicks · bought) / N)
//
// Purchases carry no query: a product's purchases are shared among the queries it was
// clicked from, by its clicks. Clicks made at random, as often as shoppers look, give
// every record the same a, so they move nothing on average; a flood of clicks on one
// record (one visitor clicking as fast as the rate limits allow) caps its a at 1, and
// at query time a record moves at most strength percent of the first page.

// PurchaseClicks is what one purchase attributed to a query counts for, in clicks.
const PurchaseClicks = 2

// positionRanges are the click positions counted together, [from, to), and the
// position each range stands for (the middle one): bucketed to keep the aggregation
// small. The last range is open.
var positionRanges = []struct{ from, to, mid float64 }{
	{1, 2, 1}, {2, 3, 2}, {3, 5, 3.5}, {5, 9, 6.5}, {9, 17, 12.5}, {17, 0, 24},
}

// examination is e(p), the probability that a shopper looks at position p.
func examination(p float64) float64 { return 1 / math.Sqrt(p) }

// QueryClicks are one query's clicks: per record, the number of clicks per position
// range (positionRanges' order).
type QueryClicks struct {
	Query    string
	Searches int64
	Clicks   map[string][]int64
}

// Totals are every click and purchase per product over the same period, which share a
// product's purchases among its queries.
type Totals struct {
	Clicks, Bought map[string]int64
}

// Attractiveness estimates a for each record clicked for q (see above). Nothing for a
// query searched fewer than minSearches times.
func Attractiveness(q QueryClicks, t Totals, minSearches int) map[string]float64 {
	if q.Searches < int64(minSearches) || q.Searches == 0 {
		return nil
	}
	out := map[string]float64{}
	for id, byRange := range q.Clicks {
		var weighed float64
		var clicks int64
		for i, n := range byRange {
			weighed += float64(n) / examination(positionRanges[i].mid)
			clicks += n
		}
		if all := t.Clicks[id]; all > 0 {
			weighed += PurchaseClicks * float64(t.Bought[id]) * float64(clicks) / float64(all)
		}
		if a := min(1, weighed/float64(q.Searches)); a > 0 {
			out[id] = a
		}
	}
	return out
}
