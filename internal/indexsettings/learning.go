package indexsettings

import (
	"fmt"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// Popularity is the effective eventRanking setting: the stored one with the CRD's
// defaults where it is absent.
type Popularity struct {
	Enabled      bool
	Weights      Weights
	HalfLifeDays int
}

// PopularityOf returns the effective eventRanking setting of s.
func PopularityOf(s searchv1alpha1.IndexSettings) Popularity {
	p := Popularity{HalfLifeDays: searchv1alpha1.DefaultHalfLifeDays, Weights: defaultWeights()}
	er := s.EventRanking
	if er == nil {
		return p
	}
	p.Enabled = er.Enabled
	if er.HalfLifeDays > 0 {
		p.HalfLifeDays = int(er.HalfLifeDays)
	}
	p.Weights = weightsOf(p.Weights, er.Weights)
	return p
}

// ReRank is the effective reRanking setting.
type ReRank struct {
	Enabled     bool
	MinSearches int
	// Strength is in percent of the first page.
	Strength int
}

// ReRankOf returns the effective reRanking setting of s.
func ReRankOf(s searchv1alpha1.IndexSettings) ReRank {
	r := ReRank{MinSearches: searchv1alpha1.DefaultMinSearches, Strength: searchv1alpha1.DefaultStrength}
	rr := s.ReRanking
	if rr == nil {
		return r
	}
	r.Enabled = rr.Enabled
	if rr.MinSearches > 0 {
		r.MinSearches = int(rr.MinSearches)
	}
	if rr.Strength > 0 {
		r.Strength = int(rr.Strength)
	}
	return r
}

// RanksByPopularity reports that s ranks by the popularity the operator computes: event
// ranking is on and customRanking starts with _popularity.
func RanksByPopularity(s searchv1alpha1.IndexSettings) bool {
	return PopularityOf(s).Enabled && relevance.PopularityFirst(s)
}

// checkPopularity: _popularity in customRanking needs eventRanking on, and comes first
// (it ranks inside the score, which comes before the other fields' exact values).
func checkPopularity(s searchv1alpha1.IndexSettings) []FieldError {
	for i, r := range s.CustomRanking {
		if r.Field != searchv1alpha1.PopularityField {
			continue
		}
		place := fmt.Sprintf("%s[%d].field", CustomRanking, i)
		switch {
		case !PopularityOf(s).Enabled:
			return []FieldError{{place, fmt.Sprintf("%q needs eventRanking.enabled", r.Field)}}
		case i > 0:
			return []FieldError{{place, fmt.Sprintf("%q must be the first customRanking field", r.Field)}}
		}
	}
	return nil
}
