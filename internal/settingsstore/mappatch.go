package settingsstore

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// A merge patch merges maps too: facetOrdering.values, keyed by facet field, would keep
// a facet the new settings leave out, and an entry would keep a key they drop. So the
// settings patch also nulls what the stored settings hold and the new ones do not.

// embedderKeys are the keys of one embedder.
var embedderKeys = jsonPaths(reflect.TypeOf(searchv1alpha1.Embedder{}), "")

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
	nullStaleEmbedders(obj, before)
	return patchAt(obj, "spec", "settings")
}

// nullStaleValues nulls, in the settings object obj, the facets of before's
// facetOrdering.values that obj leaves out, and the absent keys of those it holds.
func nullStaleValues(obj map[string]any, before searchv1alpha1.IndexSettings) {
	fo, _ := obj["facetOrdering"].(map[string]any)
	values, _ := fo["values"].(map[string]any)
	var held []string
	if before.FacetOrdering != nil {
		held = slices.Collect(maps.Keys(before.FacetOrdering.Values))
	}
	nullStale(values, held, valueKeys)
}

// nullStaleEmbedders nulls, in the settings object obj, the embedders of before that obj
// leaves out, and the absent keys of those it holds (embedders is a map too).
func nullStaleEmbedders(obj map[string]any, before searchv1alpha1.IndexSettings) {
	es, _ := obj["embedders"].(map[string]any)
	nullStale(es, slices.Collect(maps.Keys(before.Embedders)), embedderKeys)
}

// nullStale nulls in the map m the names held before that m leaves out, and in each of
// its entries the keys it lacks. A nil m is null: replaced whole.
func nullStale(m map[string]any, held, keys []string) {
	if m == nil {
		return
	}
	for _, name := range held {
		if _, kept := m[name]; !kept {
			m[name] = nil
		}
	}
	for _, entry := range m {
		if e, ok := entry.(map[string]any); ok {
			for _, k := range keys {
				nullAbsent(e, strings.Split(k, "."))
			}
		}
	}
}
