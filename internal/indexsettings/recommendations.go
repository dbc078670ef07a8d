package indexsettings

import (
	"fmt"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

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
