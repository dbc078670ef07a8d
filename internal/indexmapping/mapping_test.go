package indexmapping

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

func roundTrip(t *testing.T, b Body) map[string]any {
	t.Helper()
	raw, err := b.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func dig(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[k]
	}
	return cur
}

func TestSearchableFieldsAreTextWithKeyword(t *testing.T) {
	b, err := Build(searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "title", Weight: 3}, {Path: "brand.name", Weight: 1}},
		Language:         searchv1alpha1.LanguageEnglish,
	})
	if err != nil {
		t.Fatal(err)
	}
	m := roundTrip(t, b)
	for _, path := range [][]string{{"title"}, {"brand", "properties", "name"}} {
		keys := append([]string{"mappings", "properties"}, path...)
		if got := dig(m, append(keys, "type")...); got != "text" {
			t.Errorf("%v type = %v", path, got)
		}
		if got := dig(m, append(keys, "analyzer")...); got != AnalyzerText {
			t.Errorf("%v analyzer = %v", path, got)
		}
		if got := dig(m, append(keys, "fields", "words", "analyzer")...); got != AnalyzerWords {
			t.Errorf("%v words subfield analyzer = %v", path, got)
		}
		if got := dig(m, append(keys, "fields", "keyword", "type")...); got != "keyword" {
			t.Errorf("%v keyword subfield = %v", path, got)
		}
	}
	if dig(m, "mappings", "properties", "objectID", "type") != "keyword" {
		t.Error("objectID is not a keyword")
	}
	if dig(m, "settings", "analysis", "analyzer", "default") != nil {
		t.Error("default analyzer set although searchable fields are listed")
	}
	if h, _ := dig(m, "mappings", "_meta", "aisle", "settingsHash").(string); h == "" {
		t.Error("no settings hash in _meta")
	}
}

func TestLanguageChains(t *testing.T) {
	cases := []struct {
		lang        searchv1alpha1.Language
		text, words []any
	}{
		{searchv1alpha1.LanguageEnglish, []any{filterPossessive, "lowercase", filterStop, filterStemmer, "asciifolding"}, []any{"lowercase", "asciifolding"}},
		{"", []any{filterPossessive, "lowercase", filterStop, filterStemmer, "asciifolding"}, []any{"lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageGeneric, []any{"lowercase", "asciifolding"}, []any{"lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageGerman, []any{"lowercase", filterStop, "german_normalization", filterStemmer, "asciifolding"}, []any{"lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageFrench, []any{filterElision, "lowercase", filterStop, filterStemmer, "asciifolding"}, []any{filterElision, "lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageItalian, []any{filterElision, "lowercase", filterStop, filterStemmer, "asciifolding"}, []any{filterElision, "lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageDutch, []any{"lowercase", filterStop, filterOverride, filterStemmer, "asciifolding"}, []any{"lowercase", "asciifolding"}},
		{searchv1alpha1.LanguageTurkish, []any{"apostrophe", filterLowercase, filterStop, filterStemmer, "asciifolding"}, []any{"apostrophe", filterLowercase, "asciifolding"}},
		{searchv1alpha1.LanguagePolish, []any{"lowercase", filterStop, "asciifolding"}, []any{"lowercase", "asciifolding"}},
	}
	for _, c := range cases {
		b, _ := Build(searchv1alpha1.IndexSettings{Language: c.lang})
		m := roundTrip(t, b)
		if got := dig(m, "settings", "analysis", "analyzer", AnalyzerText, "filter"); !reflect.DeepEqual(got, c.text) {
			t.Errorf("%q: text chain = %v, want %v", c.lang, got, c.text)
		}
		if got := dig(m, "settings", "analysis", "analyzer", AnalyzerWords, "filter"); !reflect.DeepEqual(got, c.words) {
			t.Errorf("%q: words chain = %v, want %v", c.lang, got, c.words)
		}
		if dig(m, "settings", "analysis", "analyzer", AnalyzerText, "tokenizer") != "standard" {
			t.Errorf("%q: tokenizer is not standard", c.lang)
		}
		if dig(m, "settings", "analysis", "analyzer", "default") == nil {
			t.Errorf("%q: no default analyzer with empty searchable fields", c.lang)
		}
	}
}

func TestEveryLanguageHasAChain(t *testing.T) {
	for _, lang := range []searchv1alpha1.Language{"en", "de", "fr", "es", "it", "nl", "pt", "sv", "da", "no", "fi", "pl", "tr"} {
		b, _ := Build(searchv1alpha1.IndexSettings{Language: lang})
		stop, _ := dig(roundTrip(t, b), "settings", "analysis", "filter", filterStop).(map[string]any)
		if stop == nil || stop["stopwords"] == nil {
			t.Errorf("%q: no stop words", lang)
		}
	}
	b, _ := Build(searchv1alpha1.IndexSettings{Language: searchv1alpha1.LanguagePolish})
	words, _ := dig(roundTrip(t, b), "settings", "analysis", "filter", filterStop, "stopwords").([]any)
	if len(words) < 100 {
		t.Errorf("the Polish stop list holds %d words", len(words))
	}
}

func TestSynonymsAreNotInTheIndex(t *testing.T) {
	b, _ := Build(searchv1alpha1.IndexSettings{
		Language: searchv1alpha1.LanguageEnglish,
		Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}},
	})
	raw, _ := b.JSON()
	if strings.Contains(string(raw), "synonym") || strings.Contains(string(raw), "television") {
		t.Errorf("synonyms in the index body: %s", raw)
	}
}

func TestHashStableAndSensitive(t *testing.T) {
	a := searchv1alpha1.IndexSettings{Language: searchv1alpha1.LanguageEnglish}
	h1, _ := Hash(a)
	h2, _ := Hash(a)
	a.Language = searchv1alpha1.LanguageGeneric
	h3, _ := Hash(a)
	if h1 != h2 || h1 == h3 {
		t.Errorf("hashes %s %s %s", h1, h2, h3)
	}
}

func TestHashIgnoresQueryTimeSettings(t *testing.T) {
	a := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "a", Weight: 1}, {Path: "b", Weight: 1}}}
	b := searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "b", Weight: 5}, {Path: "a", Weight: 2}},
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
		FilterableFields: []searchv1alpha1.FieldPath{"price"},
		SortableFields:   []searchv1alpha1.FieldPath{"price"},
		CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity"}},
		Language:         searchv1alpha1.LanguageEnglish,
	}
	if NeedsRebuild(a, b) {
		t.Error("query-time settings changed the hash")
	}
	b.Synonyms = []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}}
	b.Ranking = []searchv1alpha1.RankingCriterion{"custom", "words"}
	b.TypoTolerance = &searchv1alpha1.TypoTolerance{MinWordSizeFor1Typo: 5}
	b.StopWords = &searchv1alpha1.StopWords{Words: []string{"cheap"}}
	if NeedsRebuild(a, b) {
		t.Error("query-time settings changed the hash")
	}
	b.Language = searchv1alpha1.LanguageFrench
	if !NeedsRebuild(a, b) {
		t.Error("the language did not change the hash")
	}
}

func TestLeafAndObjectConflict(t *testing.T) {
	_, err := Build(searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "a"}, {Path: "a.b"}}})
	if err == nil {
		t.Error("no error for a field that is both a leaf and an object")
	}
}

// An index built by a release before the words subfield has the hash of the settings
// without the layout: every such index must differ, so the operator rebuilds it once.
func TestHashChangesWithTheLayout(t *testing.T) {
	s := searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}}
	old, _ := json.Marshal(struct {
		Searchable []string `json:"searchable"`
		Language   string   `json:"language"`
		Synonyms   []string `json:"synonyms"`
	}{[]string{"name"}, "en", []string{}})
	sum := sha256.Sum256(old)
	h, _ := Hash(s)
	if h == hex.EncodeToString(sum[:8]) {
		t.Error("the hash of settings is the one earlier releases wrote: their indices would not be rebuilt")
	}
}

func TestTextChainWritesOutTheIndexFilters(t *testing.T) {
	for _, lang := range []searchv1alpha1.Language{"en", "de", "fr", "nl", "tr", "pl", "generic"} {
		b, err := Build(searchv1alpha1.IndexSettings{Language: lang, SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
		if err != nil {
			t.Fatal(err)
		}
		m := roundTrip(t, b)
		names := dig(m, "settings", "analysis", "analyzer", AnalyzerText, "filter").([]any)
		defs, _ := dig(m, "settings", "analysis", "filter").(map[string]any)
		chain := TextChain(lang)
		inline := chain["filter"].([]any)
		if len(inline) != len(names) || chain["tokenizer"] != "standard" {
			t.Fatalf("%s: chain %v, index analyzer %v", lang, chain, names)
		}
		for i, n := range names {
			want := any(n)
			if def, ok := defs[n.(string)]; ok {
				want = def
			}
			got, _ := json.Marshal(inline[i])
			wantJSON, _ := json.Marshal(want)
			if string(got) != string(wantJSON) {
				t.Errorf("%s filter %d: %s, index has %s", lang, i, got, wantJSON)
			}
		}
	}
}
