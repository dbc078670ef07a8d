package indexsettings

import (
	"fmt"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// distinctOf is the distinct setting with its default limit, nil when unset.
func distinctOf(s searchv1alpha1.IndexSettings) *searchv1alpha1.DistinctSetting {
	if s.Distinct == nil {
		return nil
	}
	d := *s.Distinct
	d.Limit = max(d.Limit, 1)
	return &d
}

// checkDistinct: distinct.field names one of the filterable or facet fields, whose exact
// values records are grouped by.
func checkDistinct(s searchv1alpha1.IndexSettings) []FieldError {
	if s.Distinct == nil {
		return nil
	}
	field := s.Distinct.Field
	if slices.Contains(s.FilterableFields, field) || slices.Contains(s.FacetFields, field) {
		return nil
	}
	fields := "none"
	if all := append(strs(s.FilterableFields), strs(s.FacetFields)...); len(all) > 0 {
		slices.Sort(all)
		fields = strings.Join(slices.Compact(all), ", ")
	}
	return []FieldError{{Distinct + ".field", fmt.Sprintf("%q is not a filterable or facet field (filterable and facet fields: %s)", field, fields)}}
}
