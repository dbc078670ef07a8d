// Package indexsettings classifies and checks changes to a SearchIndex's settings, for
// PUT /config: which changes apply at once (query time), which need a rebuild of the
// physical index, and which rules a change breaks that the CRD schema cannot state.
package indexsettings

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Setting names, as the API spells them.
const (
	SearchableFields   = "searchableFields"
	FilterableFields   = "filterableFields"
	FacetFields        = "facetFields"
	SortableFields     = "sortableFields"
	CustomRanking      = "customRanking"
	Synonyms           = "synonyms"
	Language           = "language"
	CountBrowserOrders = "countBrowserOrders"
	Recommendations    = "recommendations"
)

// Changes lists the settings that differ between two versions, split by when they
// take effect.
type Changes struct {
	// Applied take effect with the next search: weights, filterable, facet and sortable
	// fields (every field already has an exact-value mapping), custom ranking, counting
	// browser orders and the recommendation settings.
	Applied []string
	// Rebuilt need a new physical index: the set of searchable fields (their analysis),
	// the language and the synonyms (analysis settings of an open index cannot change).
	Rebuilt []string
}

// Diff classifies the changes from old to new.
func Diff(old, new searchv1alpha1.IndexSettings) Changes {
	c := Changes{Applied: []string{}, Rebuilt: []string{}}
	add := func(name string, changed, rebuild bool) {
		switch {
		case !changed:
		case rebuild:
			c.Rebuilt = append(c.Rebuilt, name)
		default:
			c.Applied = append(c.Applied, name)
		}
	}
	add(SearchableFields, !reflect.DeepEqual(weights(old), weights(new)), !slices.Equal(searchPaths(old), searchPaths(new)))
	add(FilterableFields, !sameSet(old.FilterableFields, new.FilterableFields), false)
	add(FacetFields, !sameSet(old.FacetFields, new.FacetFields), false)
	add(SortableFields, !sameSet(old.SortableFields, new.SortableFields), false)
	add(CustomRanking, !reflect.DeepEqual(ranking(old), ranking(new)), false)
	add(Synonyms, !reflect.DeepEqual(synonyms(old), synonyms(new)), true)
	add(Language, lang(old) != lang(new), true)
	add(CountBrowserOrders, old.CountBrowserOrders != new.CountBrowserOrders, false)
	add(Recommendations, !reflect.DeepEqual(RecommendationsOf(old), RecommendationsOf(new)), false)
	return c
}

func weights(s searchv1alpha1.IndexSettings) map[string]int32 {
	m := map[string]int32{}
	for _, f := range s.SearchableFields {
		m[string(f.Path)] = max(f.Weight, 1)
	}
	return m
}

func searchPaths(s searchv1alpha1.IndexSettings) []string {
	out := make([]string, 0, len(s.SearchableFields))
	for _, f := range s.SearchableFields {
		out = append(out, string(f.Path))
	}
	slices.Sort(out)
	return out
}

func sameSet(a, b []searchv1alpha1.FieldPath) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

func ranking(s searchv1alpha1.IndexSettings) []searchv1alpha1.RankingRule {
	out := make([]searchv1alpha1.RankingRule, 0, len(s.CustomRanking))
	for _, r := range s.CustomRanking {
		if r.Order == "" {
			r.Order = searchv1alpha1.SortDescending
		}
		out = append(out, r)
	}
	return out
}

func synonyms(s searchv1alpha1.IndexSettings) []searchv1alpha1.SynonymGroup {
	if len(s.Synonyms) == 0 {
		return nil
	}
	return s.Synonyms
}

func lang(s searchv1alpha1.IndexSettings) searchv1alpha1.Language {
	if s.Language == "" {
		return searchv1alpha1.LanguageEnglish
	}
	return s.Language
}

// FieldError is one broken rule, at a place named like the API's JSON paths
// (searchableFields[1].path).
type FieldError struct {
	Field   string
	Message string
}

func (e FieldError) String() string { return e.Field + ": " + e.Message }

// Check finds the problems the CRD schema cannot state: the reserved version field, a
// searchable path that is also the parent of another, duplicates in the lists (the API
// server would only say "Duplicate value"), synonym terms no index can be built with.
func Check(s searchv1alpha1.IndexSettings, reserved string) []FieldError {
	var out []FieldError
	lists := []struct {
		name, suffix string
		paths        []string
	}{
		{SearchableFields, ".path", searchPathsInOrder(s)},
		{FilterableFields, "", strs(s.FilterableFields)},
		{FacetFields, "", strs(s.FacetFields)},
		{SortableFields, "", strs(s.SortableFields)},
		{CustomRanking, ".field", rankingFields(s)},
	}
	for _, l := range lists {
		seen := map[string]bool{}
		for i, p := range l.paths {
			place := fmt.Sprintf("%s[%d]%s", l.name, i, l.suffix)
			switch {
			case p == reserved || strings.HasPrefix(p, reserved+"."):
				out = append(out, FieldError{place, fmt.Sprintf("%q is reserved for record versions", reserved)})
			case seen[p]:
				out = append(out, FieldError{place, fmt.Sprintf("%q is listed twice", p)})
			}
			seen[p] = true
		}
	}
	if _, err := indexmapping.Build(s); err != nil {
		out = append(out, FieldError{SearchableFields, strings.TrimPrefix(err.Error(), "field ")})
	}
	out = append(out, checkSynonyms(s)...)
	return append(out, checkRecommendations(s)...)
}

func searchPathsInOrder(s searchv1alpha1.IndexSettings) []string {
	out := make([]string, len(s.SearchableFields))
	for i, f := range s.SearchableFields {
		out[i] = string(f.Path)
	}
	return out
}

func rankingFields(s searchv1alpha1.IndexSettings) []string {
	out := make([]string, len(s.CustomRanking))
	for i, r := range s.CustomRanking {
		out[i] = string(r.Field)
	}
	return out
}

func strs(fs []searchv1alpha1.FieldPath) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// Dedupe returns s without repeated list entries (the first one stays), so that a
// validation of the rest by the Kubernetes API server is not cut short by them.
func Dedupe(s searchv1alpha1.IndexSettings) searchv1alpha1.IndexSettings {
	s.SearchableFields = firstBy(s.SearchableFields, func(f searchv1alpha1.SearchableField) string { return string(f.Path) })
	s.CustomRanking = firstBy(s.CustomRanking, func(r searchv1alpha1.RankingRule) string { return string(r.Field) })
	id := func(f searchv1alpha1.FieldPath) string { return string(f) }
	s.FilterableFields = firstBy(s.FilterableFields, id)
	s.FacetFields = firstBy(s.FacetFields, id)
	s.SortableFields = firstBy(s.SortableFields, id)
	return s
}

func firstBy[T any](items []T, key func(T) string) []T {
	if items == nil {
		return nil
	}
	seen := map[string]bool{}
	out := make([]T, 0, len(items))
	for _, it := range items {
		if k := key(it); !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}
