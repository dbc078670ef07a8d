package indexsettings

import (
	"fmt"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

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

// checkRecommendations: similarWithin names one of the facet fields, whose exact values
// the lists compare.
func checkRecommendations(s searchv1alpha1.IndexSettings) []FieldError {
	if s.Recommendations == nil || s.Recommendations.SimilarWithin == "" {
		return nil
	}
	within := s.Recommendations.SimilarWithin
	if slices.Contains(s.FacetFields, within) {
		return nil
	}
	facets := "none"
	if len(s.FacetFields) > 0 {
		facets = strings.Join(strs(s.FacetFields), ", ")
	}
	return []FieldError{{Recommendations + ".similarWithin", fmt.Sprintf("%q is not a facet field (facet fields: %s)", within, facets)}}
}
