package relevance

import (
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
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
	return PopularityOf(s).Enabled && PopularityFirst(s)
}

// Recommendation is the effective recommendation settings of an index: the stored ones
// with the CRD's defaults where they are absent.
type Recommendation struct {
	SimilarWithin   string
	MinSharedOrders int
	Weights         Weights
}

// Weights are what one event of each type counts for in trending.
type Weights struct {
	View, Click, AddToCart, Purchase int
}

// RecommendationsOf returns the effective recommendation settings of s.
func RecommendationsOf(s searchv1alpha1.IndexSettings) Recommendation {
	r := Recommendation{MinSharedOrders: searchv1alpha1.DefaultMinSharedOrders, Weights: defaultWeights()}
	rs := s.Recommendations
	if rs == nil {
		return r
	}
	r.SimilarWithin = string(rs.SimilarWithin)
	setInt(&r.MinSharedOrders, rs.MinSharedOrders)
	r.Weights = weightsOf(r.Weights, rs.EventWeights)
	return r
}

func defaultWeights() Weights {
	return Weights{View: searchv1alpha1.DefaultViewWeight, Click: searchv1alpha1.DefaultClickWeight,
		AddToCart: searchv1alpha1.DefaultAddToCartWeight, Purchase: searchv1alpha1.DefaultPurchaseWeight}
}

// weightsOf is def with the weights w states.
func weightsOf(def Weights, w *searchv1alpha1.EventWeights) Weights {
	if w != nil {
		setInt(&def.View, w.View)
		setInt(&def.Click, w.Click)
		setInt(&def.AddToCart, w.AddToCart)
		setInt(&def.Purchase, w.Purchase)
	}
	return def
}

func setInt(dst *int, v *int32) {
	if v != nil {
		*dst = int(*v)
	}
}

// SuggestionsOf is the suggestions setting with its defaults spelled out.
func SuggestionsOf(s searchv1alpha1.IndexSettings) searchv1alpha1.SuggestionsSetting {
	out := searchv1alpha1.SuggestionsSetting{Exclude: []string{}}
	if s.Suggestions != nil {
		out = *s.Suggestions.DeepCopy()
	}
	if out.MinDays == nil {
		days := int32(searchv1alpha1.DefaultSuggestionMinDays)
		out.MinDays = &days
	}
	if out.Exclude == nil {
		out.Exclude = []string{}
	}
	return out
}
