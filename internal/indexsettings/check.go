package indexsettings

import (
	"fmt"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// FieldError is one broken rule, at a place named like the API's JSON paths
// (searchableFields[1].path).
type FieldError struct {
	Field   string
	Message string
}

func (e FieldError) String() string { return e.Field + ": " + e.Message }

// Check finds the problems the CRD schema cannot state: the reserved version field, a
// searchable path that is also the parent of another, duplicates in the lists (the API
// server would only say "Duplicate value"), synonym terms no query can match, and the
// rules of ranking, typo tolerance and synonym entries, named in the API's words.
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
		{TypoTolerance + ".disableOnFields", "", strs(typoFields(s))},
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
	out = append(out, checkRanking(s)...)
	out = append(out, checkTypos(s)...)
	out = append(out, checkStopWords(s)...)
	out = append(out, checkSynonyms(s)...)
	out = append(out, checkDistinct(s)...)
	out = append(out, checkPopularity(s)...)
	out = append(out, checkSuggestions(s)...)
	out = append(out, checkFacetOrdering(s)...)
	out = append(out, checkEmbedders(s)...)
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
	s.Ranking = firstBy(s.Ranking, func(c searchv1alpha1.RankingCriterion) string { return string(c) })
	if s.TypoTolerance != nil {
		t := *s.TypoTolerance.DeepCopy()
		t.DisableOnFields = firstBy(t.DisableOnFields, id)
		t.DisableOnWords = firstBy(t.DisableOnWords, same)
		s.TypoTolerance = &t
	}
	if s.StopWords != nil {
		w := *s.StopWords.DeepCopy()
		w.Words = firstBy(w.Words, same)
		s.StopWords = &w
	}
	if s.Suggestions != nil {
		g := *s.Suggestions.DeepCopy()
		g.Exclude = firstBy(g.Exclude, same)
		s.Suggestions = &g
	}
	s.Synonyms = dedupeSynonyms(s.Synonyms)
	return s
}

func same(s string) string { return s }

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
