package indexmapping

import (
	"encoding/json"
	"reflect"
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
		if got := dig(m, append(keys, "search_analyzer")...); got != AnalyzerSearch {
			t.Errorf("%v search_analyzer = %v", path, got)
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
		lang searchv1alpha1.Language
		want []any
	}{
		{searchv1alpha1.LanguageEnglish, []any{"lowercase", "asciifolding", filterStop, filterStemmer}},
		{"", []any{"lowercase", "asciifolding", filterStop, filterStemmer}},
		{searchv1alpha1.LanguageGeneric, []any{"lowercase", "asciifolding"}},
	}
	for _, c := range cases {
		b, _ := Build(searchv1alpha1.IndexSettings{Language: c.lang})
		m := roundTrip(t, b)
		got := dig(m, "settings", "analysis", "analyzer", AnalyzerIndex, "filter")
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: index chain = %v, want %v", c.lang, got, c.want)
		}
		if dig(m, "settings", "analysis", "analyzer", AnalyzerIndex, "tokenizer") != "standard" {
			t.Errorf("%q: tokenizer is not standard", c.lang)
		}
		if dig(m, "settings", "analysis", "analyzer", "default") == nil {
			t.Errorf("%q: no default analyzer with empty searchable fields", c.lang)
		}
	}
}

func TestSynonymsOnlyAtSearchTime(t *testing.T) {
	b, _ := Build(searchv1alpha1.IndexSettings{
		Language: searchv1alpha1.LanguageEnglish,
		Synonyms: []searchv1alpha1.SynonymGroup{{Terms: []string{"tv", "television"}}},
	})
	m := roundTrip(t, b)
	f := dig(m, "settings", "analysis", "filter", filterSynonyms)
	want := map[string]any{"type": "synonym_graph", "synonyms": []any{"tv, television"}}
	if !reflect.DeepEqual(f, want) {
		t.Errorf("synonym filter = %v", f)
	}
	search := dig(m, "settings", "analysis", "analyzer", AnalyzerSearch, "filter")
	wantChain := []any{"lowercase", "asciifolding", filterSynonyms, filterStop, filterStemmer}
	if !reflect.DeepEqual(search, wantChain) {
		t.Errorf("search chain = %v", search)
	}
	index := dig(m, "settings", "analysis", "analyzer", AnalyzerIndex, "filter")
	for _, f := range index.([]any) {
		if f == filterSynonyms {
			t.Error("synonyms in the index analyzer")
		}
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
	if !NeedsRebuild(a, b) {
		t.Error("synonyms did not change the hash")
	}
}

func TestLeafAndObjectConflict(t *testing.T) {
	_, err := Build(searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "a"}, {Path: "a.b"}}})
	if err == nil {
		t.Error("no error for a field that is both a leaf and an object")
	}
}
