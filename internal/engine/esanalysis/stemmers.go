package esanalysis

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/turkish"
)

// snowballStemmers are the Snowball algorithms, by the names ES's snowball filter takes
// (its `language`, case-insensitively). Lucene's SnowballFilter runs the same generated
// algorithms.
var snowballStemmers = map[string]func(*snowballstem.Env) bool{
	"danish": danish.Stem, "dutch": dutch.Stem, "english": english.Stem, "finnish": finnish.Stem,
	"french": french.Stem, "german": german.Stem, "italian": italian.Stem, "norwegian": norwegian.Stem,
	"portuguese": portuguese.Stem, "russian": russian.Stem, "spanish": spanish.Stem,
	"swedish": swedish.Stem, "turkish": turkish.Stem,
}

// stemmerLanguages maps the `language` of ES's stemmer filter to the filter behind it
// (ES's StemmerTokenFilterFactory): Porter for english, Snowball for the bare language
// names, and Lucene's light stemmers, which bleve ported, for light_*.
var stemmerLanguages = map[string]func() analysis.TokenFilter{
	"english":            func() analysis.TokenFilter { return porter.NewPorterStemmer() },
	"porter":             func() analysis.TokenFilter { return porter.NewPorterStemmer() },
	"porter2":            snowballFilter("english"),
	"possessive_english": func() analysis.TokenFilter { return en.NewPossessiveFilter() },
	"light_german":       keywordAware(func() analysis.TokenFilter { return de.NewGermanLightStemmerFilter() }),
	"light_french":       keywordAware(func() analysis.TokenFilter { return fr.NewFrenchLightStemmerFilter() }),
	"minimal_french":     keywordAware(func() analysis.TokenFilter { return fr.NewFrenchMinimalStemmerFilter() }),
	"light_spanish":      keywordAware(func() analysis.TokenFilter { return es.NewSpanishLightStemmerFilter() }),
	"light_italian":      keywordAware(func() analysis.TokenFilter { return it.NewItalianLightStemmerFilterFilter() }),
	"light_portuguese":   keywordAware(func() analysis.TokenFilter { return pt.NewPortugueseLightStemmerFilter() }),
	// Earlier releases accepted these two English variants (KStem and Lucene's minimal
	// English stemmer in ES) and stem with Porter; they stay accepted so existing indices
	// open, and docs/engine.md says they are approximations.
	"light_english":   func() analysis.TokenFilter { return porter.NewPorterStemmer() },
	"minimal_english": func() analysis.TokenFilter { return porter.NewPorterStemmer() },
}

func init() {
	for lang := range snowballStemmers {
		if _, ok := stemmerLanguages[lang]; !ok {
			stemmerLanguages[lang] = snowballFilter(lang)
		}
	}
}

// newStemmer returns the stemmer filter for an ES stemmer language.
func newStemmer(language string) (analysis.TokenFilter, error) {
	mk, ok := stemmerLanguages[strings.ToLower(language)]
	if !ok {
		return nil, errorf("unsupported stemmer language [%s]", language)
	}
	return mk(), nil
}

// newSnowball returns ES's snowball filter for a Snowball language name ("German").
func newSnowball(language string) (analysis.TokenFilter, error) {
	lang := strings.ToLower(language)
	if lang == "" {
		lang = "english"
	}
	if _, ok := snowballStemmers[lang]; !ok {
		return nil, errorf("unsupported snowball language [%s]", language)
	}
	return snowballFilter(lang)(), nil
}

func snowballFilter(lang string) func() analysis.TokenFilter {
	return func() analysis.TokenFilter { return snowball{stem: snowballStemmers[lang]} }
}

// snowball stems every token not marked as a keyword, as Lucene's SnowballFilter does.
type snowball struct{ stem func(*snowballstem.Env) bool }

func (s snowball) Filter(in analysis.TokenStream) analysis.TokenStream {
	for _, t := range in {
		if t.KeyWord {
			continue
		}
		env := snowballstem.NewEnv(string(t.Term))
		s.stem(env)
		t.Term = []byte(env.Current())
	}
	return in
}

// keywordAware wraps a bleve stemmer that stems every token so that it leaves the tokens
// a keyword_marker or stemmer_override protected, as every Lucene stemmer does.
func keywordAware(mk func() analysis.TokenFilter) func() analysis.TokenFilter {
	return func() analysis.TokenFilter { return skipKeywords{inner: mk()} }
}

type skipKeywords struct{ inner analysis.TokenFilter }

func (s skipKeywords) Filter(in analysis.TokenStream) analysis.TokenStream {
	n := 0
	for _, t := range in {
		if !t.KeyWord {
			n++
		}
	}
	if n == len(in) {
		return s.inner.Filter(in)
	}
	// Stemmers change terms in place and keep every token, so stemming the others
	// changes the stream's tokens themselves.
	rest := make(analysis.TokenStream, 0, n)
	for _, t := range in {
		if !t.KeyWord {
			rest = append(rest, t)
		}
	}
	s.inner.Filter(rest)
	return in
}
