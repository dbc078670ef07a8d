package settingsstore

import (
	"reflect"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// A merge patch merges maps too: facetOrdering.values, keyed by facet field, would keep
// a facet the new settings leave out, and an entry would keep a key they drop. So the
// settings patch also nulls what the stored settings hold and the new ones do not.

// valueKeys are the keys of one facet's entry in facetOrdering.values.
var valueKeys = jsonPaths(reflect.TypeOf(searchv1alpha1.FacetValuesOrder{}), "")

// settingsPatch is the merge patch that makes next the settings of an index holding
// before.
func settingsPatch(before, next searchv1alpha1.IndexSettings) ([]byte, error) {
	obj, err := fullObject(next, settingsKeys)
	if err != nil {
		return nil, err
	}
	nullStaleValues(obj, before)
	return patchAt(obj, "spec", "settings")
}

// nullStaleValues nulls, in the settings object obj, the facets of before's
// facetOrdering.values that obj leaves out, and the absent keys of those it holds.
func nullStaleValues(obj map[string]any, before searchv1alpha1.IndexSettings) {
	fo, _ := obj["facetOrdering"].(map[string]any)
	values, _ := fo["values"].(map[string]any)
	if values == nil {
		return // facetOrdering or its values are null: replaced whole
	}
	if before.FacetOrdering != nil {
		for facet := range before.FacetOrdering.Values {
			if _, kept := values[facet]; !kept {
				values[facet] = nil
			}
		}
	}
	for _, entry := range values {
		if e, ok := entry.(map[string]any); ok {
			for _, k := range valueKeys {
				nullAbsent(e, strings.Split(k, "."))
			}
		}
	}
}
