package indexsettings

import (
	"fmt"
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// checkRanking names a criterion listed twice (the CRD's enum names unknown ones).
func checkRanking(s searchv1alpha1.IndexSettings) []FieldError {
	var out []FieldError
	for i, c := range s.Ranking {
		if slices.Contains(s.Ranking[:i], c) {
			out = append(out, FieldError{fmt.Sprintf("%s[%d]", Ranking, i), fmt.Sprintf("%q is listed twice", c)})
		}
	}
	return out
}

// checkTypos: the word sizes in order once defaults apply, and fields without typos
// among the searchable fields (only those have the words the typo rules match).
func checkTypos(s searchv1alpha1.IndexSettings) []FieldError {
	if s.TypoTolerance == nil {
		return nil
	}
	var out []FieldError
	t := relevance.TypoTolerance(s)
	if t.MinWordSizeFor2Typos < t.MinWordSizeFor1Typo {
		out = append(out, FieldError{TypoTolerance + ".minWordSizeFor2Typos",
			fmt.Sprintf("must be at least minWordSizeFor1Typo (%d)", t.MinWordSizeFor1Typo)})
	}
	searchable := searchPaths(s)
	for i, f := range t.DisableOnFields {
		if !slices.Contains(searchable, string(f)) {
			out = append(out, FieldError{fmt.Sprintf("%s.disableOnFields[%d]", TypoTolerance, i),
				fmt.Sprintf("%q is not a searchable field (searchable fields: %s)", f, listOrNone(searchable))})
		}
	}
	return append(out, twice(TypoTolerance+".disableOnWords", t.DisableOnWords)...)
}

func checkStopWords(s searchv1alpha1.IndexSettings) []FieldError {
	if s.StopWords == nil {
		return nil
	}
	return twice(StopWords+".words", s.StopWords.Words)
}

// twice names the words of a list that fold to one already listed ("Shoe" after "shoe").
func twice(place string, words []string) []FieldError {
	var out []FieldError
	seen := map[string]bool{}
	for i, w := range words {
		f := relevance.Fold(w)
		if seen[f] {
			out = append(out, FieldError{fmt.Sprintf("%s[%d]", place, i), fmt.Sprintf("%q is listed twice", w)})
		}
		seen[f] = true
	}
	return out
}

func typoFields(s searchv1alpha1.IndexSettings) []searchv1alpha1.FieldPath {
	if s.TypoTolerance == nil {
		return nil
	}
	return s.TypoTolerance.DisableOnFields
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return fmt.Sprint(l)
}
