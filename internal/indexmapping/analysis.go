package indexmapping

import (
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/relevance"
)

// Filter names defined in every index's analysis settings.
const (
	filterPossessive = "aisle_possessive"
	filterElision    = "aisle_elision"
	filterLowercase  = "aisle_lowercase"
	filterStop       = "aisle_stop"
	filterOverride   = "aisle_stemmer_override"
	filterStemmer    = "aisle_stemmer"
)

// chain is a language's analysis: Elasticsearch's analyzer of that language as its
// "Language analyzers" reference rebuilds it, then asciifolding (accents are folded at
// index and query time alike). words is the chain of the words subfield: the same
// tokens, lowercased and folded, without stop words or stemming.
type chain struct {
	filters map[string]any
	text    []string
	words   []string
}

// frenchArticles and italianArticles are the elided articles of ES's french and italian
// analyzers.
var (
	frenchArticles  = []string{"l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"}
	italianArticles = []string{"c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl", "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d"}
)

// stemmed is the common shape: lowercase, the named stop list, a stemmer.
func stemmed(stopList, stemmer string) chain {
	return chain{
		filters: map[string]any{
			filterStop:    map[string]any{"type": "stop", "stopwords": stopList},
			filterStemmer: map[string]any{"type": "stemmer", "language": stemmer},
		},
		text:  []string{"lowercase", filterStop, filterStemmer, "asciifolding"},
		words: []string{"lowercase", "asciifolding"},
	}
}

// elided puts an elision filter of articles before a chain, in both analyzers.
func elided(c chain, articles []string) chain {
	c.filters[filterElision] = map[string]any{"type": "elision", "articles": articles, "articles_case": true}
	c.text = append([]string{filterElision}, c.text...)
	c.words = append([]string{filterElision}, c.words...)
	return c
}

func chainOf(lang searchv1alpha1.Language) chain {
	switch lang {
	case searchv1alpha1.LanguageGeneric:
		return chain{filters: map[string]any{}, text: []string{"lowercase", "asciifolding"}, words: []string{"lowercase", "asciifolding"}}
	case searchv1alpha1.LanguageGerman:
		c := stemmed("_german_", "light_german")
		c.text = []string{"lowercase", filterStop, "german_normalization", filterStemmer, "asciifolding"}
		return c
	case searchv1alpha1.LanguageFrench:
		return elided(stemmed("_french_", "light_french"), frenchArticles)
	case searchv1alpha1.LanguageSpanish:
		return stemmed("_spanish_", "light_spanish")
	case searchv1alpha1.LanguageItalian:
		return elided(stemmed("_italian_", "light_italian"), italianArticles)
	case searchv1alpha1.LanguageDutch:
		c := stemmed("_dutch_", "dutch")
		c.filters[filterOverride] = map[string]any{"type": "stemmer_override",
			"rules": []string{"fiets=>fiets", "bromfiets=>bromfiets", "ei=>eier", "kind=>kinder"}}
		c.text = []string{"lowercase", filterStop, filterOverride, filterStemmer, "asciifolding"}
		return c
	case searchv1alpha1.LanguagePortuguese:
		return stemmed("_portuguese_", "light_portuguese")
	case searchv1alpha1.LanguageSwedish:
		return stemmed("_swedish_", "swedish")
	case searchv1alpha1.LanguageDanish:
		return stemmed("_danish_", "danish")
	case searchv1alpha1.LanguageNorwegian:
		return stemmed("_norwegian_", "norwegian")
	case searchv1alpha1.LanguageFinnish:
		return stemmed("_finnish_", "finnish")
	case searchv1alpha1.LanguageTurkish:
		c := stemmed("_turkish_", "turkish")
		c.filters[filterLowercase] = map[string]any{"type": "lowercase", "language": "turkish"}
		c.text = []string{"apostrophe", filterLowercase, filterStop, filterStemmer, "asciifolding"}
		c.words = []string{"apostrophe", filterLowercase, "asciifolding"}
		return c
	case searchv1alpha1.LanguagePolish:
		// Elasticsearch has no Polish analyzer without its stempel plugin: the stop words
		// of that plugin's list, and no stemmer.
		return chain{
			filters: map[string]any{filterStop: map[string]any{"type": "stop", "stopwords": relevance.LanguageStopWords(lang)}},
			text:    []string{"lowercase", filterStop, "asciifolding"},
			words:   []string{"lowercase", "asciifolding"},
		}
	}
	c := stemmed("_english_", "english")
	c.filters[filterPossessive] = map[string]any{"type": "stemmer", "language": "possessive_english"}
	c.text = append([]string{filterPossessive}, c.text...)
	return c
}

// analysis returns the analysis settings: the language analyzer of searchable fields
// and the analyzer of their words subfield. Synonyms are not here: the query applies
// them (internal/searchquery), so that changing them needs no rebuild.
func analysis(s searchv1alpha1.IndexSettings) map[string]any {
	c := chainOf(relevance.Language(s))
	analyzers := map[string]any{
		AnalyzerText:  custom(c.text),
		AnalyzerWords: custom(c.words),
	}
	if len(s.SearchableFields) == 0 {
		analyzers["default"] = custom(c.text)
	}
	out := map[string]any{"analyzer": analyzers}
	if len(c.filters) > 0 {
		out["filter"] = c.filters
	}
	return out
}

func custom(filters []string) map[string]any {
	return map[string]any{"type": "custom", "tokenizer": "standard", "filter": filters}
}
