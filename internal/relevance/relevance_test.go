package relevance_test

import (
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

func TestFoldAsAsciifolding(t *testing.T) {
	for in, want := range map[string]string{"Crème": "creme", "ŁÓDŹ": "lodz", "Straße": "strasse", "Ærø": "aero", "SHOE": "shoe", "4070": "4070"} {
		if got := relevance.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEveryLanguageButGenericHasStopWords(t *testing.T) {
	for _, lang := range []searchv1alpha1.Language{"en", "de", "fr", "es", "it", "nl", "pt", "sv", "da", "no", "fi", "pl", "tr"} {
		if n := len(relevance.LanguageStopWords(lang)); n < 30 {
			t.Errorf("%s: %d stop words", lang, n)
		}
	}
	if n := len(relevance.LanguageStopWords(searchv1alpha1.LanguageGeneric)); n != 0 {
		t.Errorf("generic: %d stop words", n)
	}
}

func TestDefaults(t *testing.T) {
	s := searchv1alpha1.IndexSettings{}
	if got := relevance.Ranking(s); len(got) != 5 || got[0] != "sort" || got[4] != "custom" {
		t.Errorf("default ranking %v", got)
	}
	typos := relevance.TypoTolerance(s)
	if !*typos.Enabled || typos.MinWordSizeFor1Typo != 4 || typos.MinWordSizeFor2Typos != 8 || typos.DisableOnWords == nil {
		t.Errorf("default typo tolerance %+v", typos)
	}
	stops := relevance.StopsOf(searchv1alpha1.IndexSettings{Language: "de", StopWords: &searchv1alpha1.StopWords{Words: []string{"Günstig"}}})
	if !stops.Dropped["und"] || !stops.Dropped["gunstig"] || !stops.Analyzer["und"] || stops.Analyzer["gunstig"] {
		t.Errorf("German stops with an added word: %+v", stops)
	}
}

func TestPopularityFirst(t *testing.T) {
	popularity := searchv1alpha1.RankingRule{Field: searchv1alpha1.PopularityField, Order: searchv1alpha1.SortDescending}
	price := searchv1alpha1.RankingRule{Field: "price", Order: searchv1alpha1.SortAscending}
	for name, c := range map[string]struct {
		custom []searchv1alpha1.RankingRule
		want   bool
	}{
		"no custom ranking":         {nil, false},
		"a field of the records":    {[]searchv1alpha1.RankingRule{price}, false},
		"_popularity first":         {[]searchv1alpha1.RankingRule{popularity, price}, true},
		"_popularity alone":         {[]searchv1alpha1.RankingRule{popularity}, true},
		"_popularity after a field": {[]searchv1alpha1.RankingRule{price, popularity}, false},
	} {
		if got := relevance.PopularityFirst(searchv1alpha1.IndexSettings{CustomRanking: c.custom}); got != c.want {
			t.Errorf("%s: PopularityFirst = %v, want %v", name, got, c.want)
		}
	}
}
