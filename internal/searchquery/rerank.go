package searchquery

import "sort"

// ReRankShift is how re-ranking moved a hit on the first page: its attractiveness to
// shoppers for the query (0 to 1, internal/signals) and its positions on the page
// before and after (1 is first).
type ReRankShift struct {
	Score float64 `json:"score"`
	From  int     `json:"from"`
	To    int     `json:"to"`
}

// ReRank reorders the hits of a first page by scores (objectID → attractiveness, 0 to
// 1): a hit moves up by score × strength percent of the page's positions, and stays
// below the hits that still come before it then; hits without a score keep their
// order around them. Promoted hits keep their positions, and no hit joins or leaves
// the page, so the next pages are unchanged. With explain, hits with a score carry
// their shift.
func ReRank(res *Response, scores map[string]float64, strength int) {
	var slots []int
	for i, h := range res.Hits {
		if !h.Promoted {
			slots = append(slots, i)
		}
	}
	if len(slots) < 2 || len(scores) == 0 {
		return
	}
	keys := make([]float64, len(slots))
	for k, i := range slots {
		keys[k] = float64(k) - scores[res.Hits[i].ObjectID]*float64(strength)/100*float64(len(slots))
	}
	order := make([]int, len(slots))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return keys[order[a]] < keys[order[b]] })
	moved := make([]Hit, len(slots))
	for to, k := range order {
		h := res.Hits[slots[k]]
		if s, ok := scores[h.ObjectID]; ok && h.Ranking != nil {
			h.Ranking.ReRank = &ReRankShift{Score: s, From: slots[k] + 1, To: slots[to] + 1}
		}
		moved[to] = h
	}
	for to, i := range slots {
		res.Hits[i] = moved[to]
	}
}
