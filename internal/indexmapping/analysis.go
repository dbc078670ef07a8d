package indexmapping

import (
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// analysis returns the analysis settings: the language chain for indexing, and the same
// chain with the synonyms for searching. Synonyms sit after lowercasing and folding and
// before stop words and stemming, so rules match what the analyzer produces.
func analysis(s searchv1alpha1.IndexSettings) map[string]any {
	filters := map[string]any{}
	base := []string{"lowercase", "asciifolding"}
	var tail []string
	if language(s) == searchv1alpha1.LanguageEnglish {
		filters[filterStop] = map[string]any{"type": "stop", "stopwords": "_english_"}
		filters[filterStemmer] = map[string]any{"type": "stemmer", "language": "english"}
		tail = []string{filterStop, filterStemmer}
	}
	search := append(append([]string{}, base...), tail...)
	if rules := synonymRules(s.Synonyms); len(rules) > 0 {
		filters[filterSynonyms] = map[string]any{"type": "synonym_graph", "synonyms": rules}
		search = append(append(append([]string{}, base...), filterSynonyms), tail...)
	}
	index := append(append([]string{}, base...), tail...)
	analyzers := map[string]any{
		AnalyzerIndex:  custom(index),
		AnalyzerSearch: custom(search),
	}
	if len(s.SearchableFields) == 0 {
		analyzers["default"] = custom(index)
		analyzers["default_search"] = custom(search)
	}
	out := map[string]any{"analyzer": analyzers}
	if len(filters) > 0 {
		out["filter"] = filters
	}
	return out
}

func custom(filters []string) map[string]any {
	return map[string]any{"type": "custom", "tokenizer": "standard", "filter": filters}
}

func language(s searchv1alpha1.IndexSettings) searchv1alpha1.Language {
	if s.Language == "" {
		return searchv1alpha1.LanguageEnglish
	}
	return s.Language
}

// synonymRules writes each group as one equivalence rule: "tv, television".
func synonymRules(groups []searchv1alpha1.SynonymGroup) []string {
	rules := make([]string, 0, len(groups))
	for _, g := range groups {
		if len(g.Terms) >= 2 {
			rules = append(rules, strings.Join(g.Terms, ", "))
		}
	}
	return rules
}
