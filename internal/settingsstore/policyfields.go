package settingsstore

import (
	"fmt"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexsettings"
)

// policyFieldProblems names each field the policy allows browsers to facet, filter or
// sort on that the settings do not list for it: public search could never use it, as
// a field must be in both.
func policyFieldProblems(s searchv1alpha1.IndexSettings, p searchv1alpha1.PublicSearchPolicy) []indexsettings.FieldError {
	var out []indexsettings.FieldError
	for _, l := range []struct {
		policy, settings      []searchv1alpha1.FieldPath
		policyKey, settingKey string
	}{
		{p.AllowedFacets, s.FacetFields, "allowedFacets", "facetFields"},
		{p.AllowedFilters, s.FilterableFields, "allowedFilters", "filterableFields"},
		{p.AllowedSorts, s.SortableFields, "allowedSorts", "sortableFields"},
	} {
		for i, f := range l.policy {
			if !slices.Contains(l.settings, f) {
				out = append(out, indexsettings.FieldError{Field: fmt.Sprintf("%s[%d]", l.policyKey, i),
					Message: fmt.Sprintf("%q is not in the settings' %s: add it there first (PUT /config)", f, l.settingKey)})
			}
		}
	}
	return out
}
