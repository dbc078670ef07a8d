// Package esanalysis holds Elasticsearch's token filters on bleve's analysis types: stop
// words with ES's named lists, the stemmer and snowball filters, elision, keyword_marker,
// stemmer_override, Turkish lowercasing and asciifolding. Each is registered in bleve's
// registry under a type name (Type*) whose config takes the ES filter's own parameters, so
// a mapping builds them from an ES filter definition.
package esanalysis

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/registry"
)

// Bleve token filter types, each configured with the parameters of the ES filter it
// implements.
const (
	TypeStop            = "es_stop"             // stopwords, ignore_case
	TypeStemmer         = "es_stemmer"          // language
	TypeSnowball        = "es_snowball"         // language
	TypeElision         = "es_elision"          // articles, articles_case
	TypeKeywordMarker   = "es_keyword_marker"   // keywords, ignore_case
	TypeStemmerOverride = "es_stemmer_override" // rules
	TypeLowercase       = "es_lowercase"        // language (turkish)
	TypeFold            = "aisle_asciifolding"  // preserve_original
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func init() {
	types := map[string]registry.TokenFilterConstructor{
		TypeStop: func(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
			words, err := stopSet(c["stopwords"], Bool(c["ignore_case"]))
			return stop{words: words, fold: Bool(c["ignore_case"])}, err
		},
		TypeStemmer: func(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
			lang, _ := c["language"].(string)
			if lang == "" {
				lang = "english"
			}
			return newStemmer(lang)
		},
		TypeSnowball: func(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
			lang, _ := c["language"].(string)
			return newSnowball(lang)
		},
		TypeElision:         newElision,
		TypeKeywordMarker:   newKeywordMarker,
		TypeStemmerOverride: newStemmerOverride,
		TypeLowercase:       newLowercase,
		TypeFold: func(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
			return newFold(Bool(c["preserve_original"])), nil
		},
	}
	for name, mk := range types {
		// Registration fails only for a duplicate name, a programming error worth a crash.
		if err := registry.RegisterTokenFilter(name, mk); err != nil {
			panic(err)
		}
	}
}

// Bool reads a boolean parameter as settings hold it: a JSON boolean or "true"/"false".
func Bool(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return x == "true"
	}
	return false
}

// Strings reads a list parameter: a JSON array of strings, or one string.
func Strings(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{x}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, errors.New("expected a list of strings")
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, errors.New("expected a list of strings")
}

// stop removes the tokens in words; positions keep their gaps, as Lucene's StopFilter
// leaves a position increment behind.
type stop struct {
	words analysis.TokenMap
	fold  bool
}

func (f stop) Filter(in analysis.TokenStream) analysis.TokenStream {
	j := 0
	for _, t := range in {
		term := string(t.Term)
		if f.fold {
			term = strings.ToLower(term)
		}
		if !f.words[term] {
			in[j] = t
			j++
		}
	}
	return in[:j]
}

// elision strips an article and its apostrophe ("l'avion" → "avion"): Lucene's
// ElisionFilter looks at the first apostrophe only.
type elision struct {
	articles analysis.TokenMap
	fold     bool
}

// FrenchArticles are ES's default elision articles (Lucene's FrenchAnalyzer.DEFAULT_ARTICLES).
var FrenchArticles = []string{"l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"}

// ItalianArticles are Lucene's ItalianAnalyzer.DEFAULT_ARTICLES.
var ItalianArticles = []string{"c", "l", "all", "dall", "dell", "nell", "sull", "coll", "pell", "gl", "agl", "dagl", "degl", "negl", "sugl", "un", "m", "t", "s", "v", "d"}

func newElision(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
	words, err := Strings(c["articles"])
	if err != nil {
		return nil, err
	}
	if words == nil {
		return nil, errors.New("elision filter requires [articles] or [articles_path] setting")
	}
	fold := Bool(c["articles_case"])
	return elision{articles: wordSet(words, fold), fold: fold}, nil
}

func (f elision) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		for i := 0; i < len(t.Term); {
			r, size := utf8.DecodeRune(t.Term[i:])
			if r != '\'' && r != '’' {
				i += size
				continue
			}
			prefix := string(t.Term[:i])
			if f.fold {
				prefix = strings.ToLower(prefix)
			}
			if f.articles[prefix] {
				t.Term = t.Term[i+size:]
			}
			break
		}
	}
	return in
}

// keywordMarker protects the listed terms from the stemmers after it.
type keywordMarker struct {
	words analysis.TokenMap
	fold  bool
}

func newKeywordMarker(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
	if _, ok := c["keywords_pattern"]; ok {
		return nil, errors.New("keyword_marker [keywords_pattern] is not supported by this engine")
	}
	words, err := Strings(c["keywords"])
	if err != nil {
		return nil, err
	}
	if words == nil {
		return nil, errors.New("keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured")
	}
	fold := Bool(c["ignore_case"])
	return keywordMarker{words: wordSet(words, fold), fold: fold}, nil
}

func (f keywordMarker) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		term := string(t.Term)
		if f.fold {
			term = strings.ToLower(term)
		}
		if f.words[term] {
			t.KeyWord = true
		}
	}
	return in
}

// stemmerOverride replaces a term by its rule's stem and protects it from later stemmers.
type stemmerOverride map[string]string

// DutchOverrides are the default stem overrides of Lucene's DutchAnalyzer.
var DutchOverrides = []any{"fiets=>fiets", "bromfiets=>bromfiets", "ei=>eier", "kind=>kinder"}

func newStemmerOverride(c map[string]any, _ *registry.Cache) (analysis.TokenFilter, error) {
	rules, err := Strings(c["rules"])
	if err != nil {
		return nil, err
	}
	if rules == nil {
		return nil, errors.New("stemmer override filter requires either `rules` or `rules_path` to be configured")
	}
	out := stemmerOverride{}
	for _, r := range rules {
		lhs, stem, ok := strings.Cut(r, "=>")
		stem = strings.TrimSpace(stem)
		if !ok || stem == "" || strings.Contains(stem, ",") {
			return nil, errorf("Invalid Keyword override Rule:%s", r)
		}
		for _, k := range strings.Split(lhs, ",") {
			if k = strings.TrimSpace(k); k != "" {
				out[k] = stem
			}
		}
	}
	return out, nil
}

func (f stemmerOverride) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		if t.KeyWord {
			continue
		}
		if stem, ok := f[string(t.Term)]; ok {
			t.Term = []byte(stem)
			t.KeyWord = true
		}
	}
	return in
}
