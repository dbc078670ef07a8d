package aggs

import (
	"math"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// heuristic scores how significant a term is in a subset of documents (the bucket) against
// a superset (the background), as Elasticsearch's SignificanceHeuristic implementations
// do: subsetFreq of subsetSize documents of the subset hold the term, supersetFreq of
// supersetSize of the superset.
type heuristic struct {
	name string
	// includeNegatives keeps terms rarer in the subset than in the rest (mutual
	// information, chi square); backgroundIsSuperset says the subset is part of the
	// background (the default).
	includeNegatives, backgroundIsSuperset bool
}

// heuristicNames are the heuristics significant_terms takes, by their parameter name.
var heuristicNames = []string{"jlh", "percentage", "mutual_information", "chi_square", "gnd"}

func (h heuristic) score(subsetFreq, subsetSize, supersetFreq, supersetSize int64) (float64, error) {
	if err := h.check(subsetFreq, subsetSize, supersetFreq, supersetSize); err != nil {
		return 0, err
	}
	switch h.name {
	case "percentage":
		if supersetFreq == 0 {
			return 0, nil
		}
		return float64(subsetFreq) / float64(supersetFreq), nil
	case "mutual_information", "chi_square", "gnd":
		return h.nxy(nxyOf(subsetFreq, subsetSize, supersetFreq, supersetSize, h.backgroundIsSuperset)), nil
	}
	return jlh(subsetFreq, subsetSize, supersetFreq, supersetSize), nil
}

// jlh blends the absolute and the relative change of the term's probability: it favours
// medium-rare terms whose frequency rose.
func jlh(subsetFreq, subsetSize, supersetFreq, supersetSize int64) float64 {
	if subsetSize == 0 || supersetSize == 0 {
		return 0
	}
	if supersetFreq == 0 {
		supersetFreq = 1 // a background that is not a superset may lack the term
	}
	sub := float64(subsetFreq) / float64(subsetSize)
	super := float64(supersetFreq) / float64(supersetSize)
	if sub-super <= 0 {
		return 0
	}
	return (sub - super) * (sub / super)
}

// check refuses frequencies no heuristic can score, with Elasticsearch's messages.
func (h heuristic) check(subsetFreq, subsetSize, supersetFreq, supersetSize int64) error {
	switch {
	case subsetFreq < 0 || subsetSize < 0 || supersetFreq < 0 || supersetSize < 0:
		return eserr.IllegalArgument("Frequencies of subset and superset must be positive in %s.getScore()", h.name)
	case subsetFreq > subsetSize:
		return eserr.IllegalArgument("subsetFreq > subsetSize, in %s", h.name)
	case supersetFreq > supersetSize:
		return eserr.IllegalArgument("supersetFreq > supersetSize, in %s", h.name)
	}
	if !h.backgroundIsSuperset || h.name == "jlh" || h.name == "percentage" {
		return nil
	}
	const hint = `, does your background filter not include all documents in the bucket? If so and it is intentional, set "background_is_superset": false`
	switch {
	case subsetFreq > supersetFreq:
		return eserr.IllegalArgument("subsetFreq > supersetFreq" + hint)
	case subsetSize > supersetSize:
		return eserr.IllegalArgument("subsetSize > supersetSize" + hint)
	case supersetFreq-subsetFreq > supersetSize-subsetSize:
		return eserr.IllegalArgument("supersetFreq - subsetFreq > supersetSize - subsetSize" + hint)
	}
	return nil
}

// nxy is the 2×2 contingency table of term against class (Manning et al., chapter 13):
// n10 documents hold the term and are not in the class, n1_ hold the term, and so on.
type nxy struct{ n00, n01, n10, n11, n0_, n1_, n_0, n_1, n float64 }

func nxyOf(subsetFreq, subsetSize, supersetFreq, supersetSize int64, superset bool) nxy {
	sf, ss, bf, bs := float64(subsetFreq), float64(subsetSize), float64(supersetFreq), float64(supersetSize)
	if superset {
		return nxy{n00: bs - bf - (ss - sf), n01: ss - sf, n10: bf - sf, n11: sf,
			n0_: bs - bf, n1_: bf, n_0: bs - ss, n_1: ss, n: bs}
	}
	return nxy{n00: bs - bf, n01: ss - sf, n10: bf, n11: sf,
		n0_: bs - bf + ss - sf, n1_: bf + sf, n_0: bs, n_1: ss, n: bs + ss}
}

func (h heuristic) nxy(f nxy) float64 {
	switch h.name {
	case "gnd":
		return gnd(f)
	case "chi_square":
		if !h.includeNegatives && f.n11/f.n_1 < f.n10/f.n_0 {
			return math.Inf(-1)
		}
		return f.n * math.Pow(f.n11*f.n00-f.n01*f.n10, 2) / (f.n_1 * f.n1_ * f.n0_ * f.n_0)
	}
	return h.mutualInformation(f)
}

// mutualInformation is Manning et al.'s equation 13.17, in bits.
func (h heuristic) mutualInformation(f nxy) float64 {
	score := (miTerm(f.n00, f.n0_, f.n_0, f.n) + miTerm(f.n01, f.n0_, f.n_1, f.n) +
		miTerm(f.n10, f.n1_, f.n_0, f.n) + miTerm(f.n11, f.n1_, f.n_1, f.n)) / math.Log(2)
	if math.IsNaN(score) {
		score = math.Inf(-1)
	}
	if !h.includeNegatives && f.n11/f.n_1 < f.n10/f.n_0 {
		score = math.Inf(-1)
	}
	return score
}

// miTerm is one term of the mutual information, 0 where 0·log(0) would be.
func miTerm(nxy, nx_, n_y, n float64) float64 {
	numerator, denominator, factor := math.Abs(n*nxy), math.Abs(nx_*n_y), math.Abs(nxy/n)
	if numerator < 1e-7 && factor < 1e-7 {
		return 0
	}
	return factor * math.Log(numerator/denominator)
}

// gnd is the Google normalized distance (Cilibrasi and Vitanyi), inverted so that close
// terms score high.
func gnd(f nxy) float64 {
	fx, fy, fxy := f.n1_, f.n_1, f.n11
	switch {
	case fxy == 0:
		return 0
	case fx == fy && fx == fxy:
		return 1
	}
	d := (math.Max(math.Log(fx), math.Log(fy)) - math.Log(fxy)) / (math.Log(f.n) - math.Min(math.Log(fx), math.Log(fy)))
	return math.Exp(-d)
}
