package indexsettings

import (
	"fmt"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// checkSuggestions: suggestions.minDays lies in 1..90 (the CRD says so too, for writes
// that skip this check), and each excluded entry is one word, listed once.
func checkSuggestions(s searchv1alpha1.IndexSettings) []FieldError {
	if s.Suggestions == nil {
		return nil
	}
	var out []FieldError
	if d := s.Suggestions.MinDays; d != nil && (*d < 1 || *d > searchv1alpha1.MaxSuggestionMinDays) {
		out = append(out, FieldError{Suggestions + ".minDays", fmt.Sprintf("must be from 1 to %d", searchv1alpha1.MaxSuggestionMinDays)})
	}
	place := Suggestions + ".exclude"
	for i, w := range s.Suggestions.Exclude {
		if len(strings.Fields(w)) != 1 {
			out = append(out, FieldError{fmt.Sprintf("%s[%d]", place, i), fmt.Sprintf("%q must be one word", w)})
		}
	}
	return append(out, twice(place, s.Suggestions.Exclude)...)
}
