package searchquery

import (
	"math"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// The ranking is one number per hit, its _score: the mixed-radix number of the
// criteria's levels, most significant criterion first,
//
//	score = Σ level_i × base_i,   base_last = 1,   base_i = base_{i+1} × size_{i+1}
//
// Each level comes from constant_score clauses whose boost is a multiple of the
// criterion's base, summed by bool and maxed by dis_max. Elasticsearch keeps scores as
// float32, whose integers are exact below 2^24: the sizes are computed per request (from
// the number of query words and of field ranks) so that their product stays within it,
// and the same radix decodes a score back into its levels for explain.

// scoreLimit bounds the product of the band sizes: every score is below it.
const scoreLimit = 1 << 24

// maxQuantizedLevels bounds the levels of a numeric criterion moved before text
// criteria (custom, or sort after the first place).
const maxQuantizedLevels = 32

// Criterion names, as settings and explain spell them.
const (
	critSort      = searchv1alpha1.RankSort
	critWords     = searchv1alpha1.RankWords
	critTypo      = searchv1alpha1.RankTypo
	critProximity = searchv1alpha1.RankProximity
	critAttribute = searchv1alpha1.RankAttribute
	critExact     = searchv1alpha1.RankExact
	critCustom    = searchv1alpha1.RankCustom
)

// band is one criterion's digit of the score.
type band struct {
	criterion  searchv1alpha1.RankingCriterion
	size, base int64
}

// radix is the bands of one request, most significant first.
type radix struct {
	bands []band
}

// newRadix sizes the bands of ranking: sizes gives the text criteria's number of
// levels; each criterion of quantized (in ranking order) takes what room is left, at
// most maxQuantizedLevels. A criterion of one level or none has no band.
func newRadix(ranking []searchv1alpha1.RankingCriterion, sizes map[searchv1alpha1.RankingCriterion]int64, quantized []searchv1alpha1.RankingCriterion) radix {
	product := int64(1)
	for _, c := range ranking {
		if sizes[c] > 1 {
			product *= sizes[c]
		}
	}
	room := scoreLimit / product
	all := map[searchv1alpha1.RankingCriterion]int64{}
	for c, n := range sizes {
		all[c] = n
	}
	for _, c := range ranking {
		if !containsCriterion(quantized, c) {
			continue
		}
		if l := min(maxQuantizedLevels, room); l > 1 {
			all[c] = l
			room /= l
		}
	}
	var r radix
	base := int64(1)
	for i := len(ranking) - 1; i >= 0; i-- {
		c := ranking[i]
		if all[c] < 2 {
			continue
		}
		r.bands = append([]band{{criterion: c, size: all[c], base: base}}, r.bands...)
		base *= all[c]
	}
	return r
}

func containsCriterion(list []searchv1alpha1.RankingCriterion, c searchv1alpha1.RankingCriterion) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

// base is the multiplier of criterion c's levels, 0 when c has no band (its levels then
// add nothing).
func (r radix) base(c searchv1alpha1.RankingCriterion) int64 {
	for _, b := range r.bands {
		if b.criterion == c {
			return b.base
		}
	}
	return 0
}

// total is the number of scores the bands make: every integer part is below it.
func (r radix) total() int64 {
	if len(r.bands) == 0 {
		return 1
	}
	return r.bands[0].base * r.bands[0].size
}

// has reports a band for c.
func (r radix) has(c searchv1alpha1.RankingCriterion) bool { return r.base(c) > 0 }

// levels are a clause's contribution to the text criteria.
type levels struct {
	words, typo, attribute, exact int
}

// boost is the score of a clause with these levels.
func (r radix) boost(l levels) int64 {
	return int64(l.words)*r.base(critWords) + int64(l.typo)*r.base(critTypo) +
		int64(l.attribute)*r.base(critAttribute) + int64(l.exact)*r.base(critExact)
}

// decode splits a score into the level of each band.
func (r radix) decode(score float64) map[searchv1alpha1.RankingCriterion]int64 {
	n := int64(math.Round(score))
	out := make(map[searchv1alpha1.RankingCriterion]int64, len(r.bands))
	for _, b := range r.bands {
		out[b.criterion] = n / b.base % b.size
	}
	return out
}
