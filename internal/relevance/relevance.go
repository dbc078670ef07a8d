// Package relevance is the one home of the settings' defaults: it says what an index's
// settings mean once their defaults apply. The ranking criteria in order, the typo rules,
// the stop words (each language's list, with the index's own) and how query words are
// folded to compare with them (relevance.go, stopwords.go, fold.go); event ranking
// (popularity), re-ranking, recommendations and query suggestions (learning.go). It is
// pure and shared by the query builder, the index mapping, the settings checks, the
// signals, recommendations and the API's settings form, so that every reader applies the
// same defaults. Checking a change of settings is internal/indexsettings'.
package relevance

import (
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// DefaultRanking is the ranking of an index whose settings list none. Proximity and
// attribute are left out: on catalogs people judged (make bench-relevance) either one
// ranked worse than leaving the text's ties to BM25, which weighs the fields by their
// weights and the words by how often a record holds them.
var DefaultRanking = []searchv1alpha1.RankingCriterion{
	searchv1alpha1.RankSort, searchv1alpha1.RankWords, searchv1alpha1.RankTypo, searchv1alpha1.RankExact,
	searchv1alpha1.RankCustom,
}

// Ranking is the index's ranking, in order.
func Ranking(s searchv1alpha1.IndexSettings) []searchv1alpha1.RankingCriterion {
	if len(s.Ranking) == 0 {
		return slices.Clone(DefaultRanking)
	}
	return slices.Clone(s.Ranking)
}

// Default typo rules.
const (
	DefaultMinWordSizeFor1Typo  = 4
	DefaultMinWordSizeFor2Typos = 8
)

// TypoTolerance is the index's typo rules with the defaults filled in: Enabled is set
// and the lists are never nil.
func TypoTolerance(s searchv1alpha1.IndexSettings) searchv1alpha1.TypoTolerance {
	t := searchv1alpha1.TypoTolerance{}
	if s.TypoTolerance != nil {
		t = *s.TypoTolerance.DeepCopy()
	}
	t.Enabled = ptr(t.Enabled == nil || *t.Enabled)
	if t.MinWordSizeFor1Typo == 0 {
		t.MinWordSizeFor1Typo = DefaultMinWordSizeFor1Typo
	}
	if t.MinWordSizeFor2Typos == 0 {
		t.MinWordSizeFor2Typos = DefaultMinWordSizeFor2Typos
	}
	t.DisableOnFields = orEmpty(t.DisableOnFields)
	t.DisableOnWords = orEmpty(t.DisableOnWords)
	return t
}

// StopWords is the index's stop word settings with the defaults filled in.
func StopWords(s searchv1alpha1.IndexSettings) searchv1alpha1.StopWords {
	w := searchv1alpha1.StopWords{}
	if s.StopWords != nil {
		w = *s.StopWords.DeepCopy()
	}
	w.Enabled = ptr(w.Enabled == nil || *w.Enabled)
	w.Words = orEmpty(w.Words)
	return w
}

// Language is the index's language (English when the settings do not say).
func Language(s searchv1alpha1.IndexSettings) searchv1alpha1.Language {
	if s.Language == "" {
		return searchv1alpha1.LanguageEnglish
	}
	return s.Language
}

func ptr[T any](v T) *T { return &v }

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// PopularityFirst reports that customRanking starts with _popularity: the one place the
// settings checks let it stand, since it ranks inside the score, before the exact values
// of any other field. It is the one test of where popularity ranks: the settings'
// RanksByPopularity (with event ranking on) and the query's custom criterion both ask it.
func PopularityFirst(s searchv1alpha1.IndexSettings) bool {
	return len(s.CustomRanking) > 0 && s.CustomRanking[0].Field == searchv1alpha1.PopularityField
}
