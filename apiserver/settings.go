package apiserver

import (
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// settingsBody is the wire form of an index's settings: every list is present, so
// clients need not tell "absent" from "empty".
type settingsBody struct {
	SearchableFields   []searchv1alpha1.SearchableField  `json:"searchableFields"`
	FilterableFields   []searchv1alpha1.FieldPath        `json:"filterableFields"`
	FacetFields        []searchv1alpha1.FieldPath        `json:"facetFields"`
	SortableFields     []searchv1alpha1.FieldPath        `json:"sortableFields"`
	Ranking            []searchv1alpha1.RankingCriterion `json:"ranking"`
	CustomRanking      []searchv1alpha1.RankingRule      `json:"customRanking"`
	Synonyms           []searchv1alpha1.SynonymGroup     `json:"synonyms"`
	TypoTolerance      *typoToleranceBody                `json:"typoTolerance"`
	StopWords          *stopWordsBody                    `json:"stopWords"`
	Language           searchv1alpha1.Language           `json:"language"`
	CountBrowserOrders bool                              `json:"countBrowserOrders"`
	// Recommendations is absent when every recommendation setting is at its default.
	Recommendations *searchv1alpha1.RecommendationSettings `json:"recommendations,omitempty"`
	// Distinct is absent when records are not grouped.
	Distinct *searchv1alpha1.DistinctSetting `json:"distinct,omitempty"`
	// EventRanking and ReRanking are absent when never set.
	EventRanking *searchv1alpha1.EventRanking `json:"eventRanking,omitempty"`
	ReRanking    *reRankingBody               `json:"reRanking,omitempty"`
	// Suggestions is absent when every suggestion setting is at its default.
	Suggestions *searchv1alpha1.SuggestionsSetting `json:"suggestions,omitempty"`
	// FacetOrdering is absent when never set.
	FacetOrdering *searchv1alpha1.FacetOrdering `json:"facetOrdering,omitempty"`
	// Embedders is absent when the index has none.
	Embedders map[string]searchv1alpha1.Embedder `json:"embedders,omitempty"`
}

// typoToleranceBody and stopWordsBody are the wire forms of the settings' objects:
// every member present in answers; in a PUT, an absent member takes its default.
type typoToleranceBody struct {
	Enabled              *bool                      `json:"enabled"`
	MinWordSizeFor1Typo  int32                      `json:"minWordSizeFor1Typo"`
	MinWordSizeFor2Typos int32                      `json:"minWordSizeFor2Typos"`
	OnNumbers            bool                       `json:"onNumbers"`
	DisableOnFields      []searchv1alpha1.FieldPath `json:"disableOnFields"`
	DisableOnWords       []string                   `json:"disableOnWords"`
}

type stopWordsBody struct {
	Enabled *bool    `json:"enabled"`
	Words   []string `json:"words"`
	Replace bool     `json:"replace"`
}

// rebuildBody is the progress of a background rebuild.
type rebuildBody struct {
	State          searchv1alpha1.RebuildState `json:"state"`
	DocumentsDone  int64                       `json:"documentsDone"`
	DocumentsTotal int64                       `json:"documentsTotal"`
	StartedAt      *time.Time                  `json:"startedAt"`
	FinishedAt     *time.Time                  `json:"finishedAt"`
	Error          *string                     `json:"error"`
}

type configResponse struct {
	settingsBody
	Rebuild *rebuildBody `json:"rebuild"`
}

// settingsOf is the wire form of stored settings, defaults spelled out.
func settingsOf(s searchv1alpha1.IndexSettings) settingsBody {
	t, w := relevance.TypoTolerance(s), relevance.StopWords(s)
	return settingsBody{
		SearchableFields: orEmpty(s.SearchableFields),
		FilterableFields: orEmpty(s.FilterableFields),
		FacetFields:      orEmpty(s.FacetFields),
		SortableFields:   orEmpty(s.SortableFields),
		Ranking:          relevance.Ranking(s),
		CustomRanking:    orEmpty(s.CustomRanking),
		Synonyms:         orEmpty(s.Synonyms),
		TypoTolerance: &typoToleranceBody{Enabled: t.Enabled, MinWordSizeFor1Typo: t.MinWordSizeFor1Typo,
			MinWordSizeFor2Typos: t.MinWordSizeFor2Typos, OnNumbers: t.OnNumbers,
			DisableOnFields: t.DisableOnFields, DisableOnWords: t.DisableOnWords},
		StopWords:          &stopWordsBody{Enabled: w.Enabled, Words: w.Words, Replace: w.Replace},
		Language:           relevance.Language(s),
		CountBrowserOrders: s.CountBrowserOrders,
		Recommendations:    s.Recommendations,
		Distinct:           s.Distinct,
		EventRanking:       s.EventRanking,
		ReRanking:          reRankingBodyOf(s.ReRanking),
		Suggestions:        s.Suggestions,
		FacetOrdering:      s.FacetOrdering,
		Embedders:          s.Embedders,
	}
}

func rebuildOf(r *searchv1alpha1.RebuildStatus) *rebuildBody {
	if r == nil {
		return nil
	}
	b := &rebuildBody{State: r.State, DocumentsDone: r.DocumentsDone, DocumentsTotal: r.DocumentsTotal}
	if r.StartTime != nil {
		b.StartedAt = &r.StartTime.Time
	}
	if r.CompletionTime != nil {
		b.FinishedAt = &r.CompletionTime.Time
	}
	if r.Error != "" {
		b.Error = &r.Error
	}
	return b
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
