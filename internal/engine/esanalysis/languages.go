package esanalysis

import "errors"

// language is one of ES's language analyzers: the standard tokenizer and these token
// filters, as ES's "Language analyzers" reference rebuilds them (and Lucene's
// <Language>Analyzer builds them). stemAt is where a keyword_marker goes when the
// analyzer has a stem_exclusion list; stopAt is the filter its stopwords replace.
type language struct {
	filters        []Def
	stopAt, stemAt int
}

func stopOf(list string) Def    { return Def{"type": "stop", "stopwords": list} }
func stemmerOf(lang string) Def { return Def{"type": "stemmer", "language": lang} }
func elisionOf(articles []string) Def {
	return Def{"type": "elision", "articles": anyList(articles), "articles_case": true}
}

var lower = Def{"type": "lowercase"}

// plain is the chain most languages share: lowercase, stop words, stemmer.
func plain(stops, stemmer string) language {
	return language{filters: []Def{lower, stopOf(stops), stemmerOf(stemmer)}, stopAt: 1, stemAt: 2}
}

var languages = map[string]language{
	"english": {filters: []Def{stemmerOf("possessive_english"), lower, stopOf("_english_"), stemmerOf("english")}, stopAt: 2, stemAt: 3},
	"german": {filters: []Def{lower, stopOf("_german_"), {"type": "german_normalization"}, stemmerOf("light_german")},
		stopAt: 1, stemAt: 2},
	"french": {filters: []Def{elisionOf(FrenchArticles), lower, stopOf("_french_"), stemmerOf("light_french")},
		stopAt: 2, stemAt: 3},
	"italian": {filters: []Def{elisionOf(ItalianArticles), lower, stopOf("_italian_"), stemmerOf("light_italian")},
		stopAt: 2, stemAt: 3},
	"dutch": {filters: []Def{lower, stopOf("_dutch_"), {"type": "stemmer_override", "rules": DutchOverrides}, stemmerOf("dutch")},
		stopAt: 1, stemAt: 2},
	"turkish": {filters: []Def{{"type": "apostrophe"}, {"type": "lowercase", "language": "turkish"}, stopOf("_turkish_"), stemmerOf("turkish")},
		stopAt: 2, stemAt: 3},
	"spanish":    plain("_spanish_", "light_spanish"),
	"portuguese": plain("_portuguese_", "light_portuguese"),
	"swedish":    plain("_swedish_", "swedish"),
	"danish":     plain("_danish_", "danish"),
	"norwegian":  plain("_norwegian_", "norwegian"),
	"finnish":    plain("_finnish_", "finnish"),
}

// Languages lists ES's language analyzers the engine has, sorted.
func Languages() []string { return sortedKeys(languages) }

// LanguageFilters returns the token filter definitions of a language analyzer, with the
// analyzer's own parameters applied: `stopwords` replaces its stop list and
// `stem_exclusion` protects words from its stemmer. ok is false for an unknown language.
func LanguageFilters(name string, params map[string]any) (filters []Def, ok bool, err error) {
	l, ok := languages[name]
	if !ok {
		return nil, false, nil
	}
	for k := range params {
		switch k {
		case "type", "stopwords", "stem_exclusion":
		default:
			return nil, true, errors.New("analyzer [" + name + "] parameter [" + k + "] is not supported by this engine")
		}
	}
	out := append([]Def(nil), l.filters...)
	if sw, ok := params["stopwords"]; ok {
		out[l.stopAt] = Def{"type": "stop", "stopwords": sw}
	}
	if ex, ok := params["stem_exclusion"]; ok {
		marker := Def{"type": "keyword_marker", "keywords": ex}
		out = append(out[:l.stemAt], append([]Def{marker}, out[l.stemAt:]...)...)
	}
	return out, true, nil
}
