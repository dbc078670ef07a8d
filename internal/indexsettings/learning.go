package indexsettings

import (
	"fmt"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// checkPopularity: _popularity in customRanking needs eventRanking on, and comes first
// (it ranks inside the score, which comes before the other fields' exact values).
func checkPopularity(s searchv1alpha1.IndexSettings) []FieldError {
	for i, r := range s.CustomRanking {
		if r.Field != searchv1alpha1.PopularityField {
			continue
		}
		place := fmt.Sprintf("%s[%d].field", CustomRanking, i)
		switch {
		case !relevance.PopularityOf(s).Enabled:
			return []FieldError{{place, fmt.Sprintf("%q needs eventRanking.enabled", r.Field)}}
		case i > 0:
			return []FieldError{{place, fmt.Sprintf("%q must be the first customRanking field", r.Field)}}
		}
	}
	return nil
}
