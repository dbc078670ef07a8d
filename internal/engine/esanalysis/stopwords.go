package esanalysis

import (
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/da"
	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/lang/es"
	"github.com/blevesearch/bleve/v2/analysis/lang/fi"
	"github.com/blevesearch/bleve/v2/analysis/lang/fr"
	"github.com/blevesearch/bleve/v2/analysis/lang/it"
	"github.com/blevesearch/bleve/v2/analysis/lang/nl"
	"github.com/blevesearch/bleve/v2/analysis/lang/no"
	"github.com/blevesearch/bleve/v2/analysis/lang/pt"
	"github.com/blevesearch/bleve/v2/analysis/lang/sv"
	"github.com/blevesearch/bleve/v2/analysis/lang/tr"
)

// englishStopWords is Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, ES's `_english_`:
// 33 words, not the longer Snowball list bleve's English analyzer uses.
const englishStopWords = `a an and are as at be but by for if in into is it no not of on or
such that the their then there these they this to was will with`

// namedSources are the stop word files behind ES's named lists. Every list but English is
// a Snowball or Lucene list that bleve copied from Lucene's analysis resources, the files
// ES's language analyzers load.
var namedSources = map[string][]byte{
	"_english_":    []byte(englishStopWords),
	"_german_":     de.GermanStopWords,
	"_french_":     fr.FrenchStopWords,
	"_spanish_":    es.SpanishStopWords,
	"_italian_":    it.ItalianStopWords,
	"_dutch_":      nl.DutchStopWords,
	"_portuguese_": pt.PortugueseStopWords,
	"_swedish_":    sv.SwedishStopWords,
	"_danish_":     da.DanishStopWords,
	"_norwegian_":  no.NorwegianStopWords,
	"_finnish_":    fi.FinnishStopWords,
	"_turkish_":    tr.TurkishStopWords,
	"_none_":       nil,
}

var (
	namedOnce  sync.Once
	namedLists map[string]analysis.TokenMap
)

// NamedStopWords returns one of ES's predefined stop word lists ("_german_"), parsed once
// and shared: callers must not change it.
func NamedStopWords(name string) (analysis.TokenMap, bool) {
	namedOnce.Do(func() {
		namedLists = make(map[string]analysis.TokenMap, len(namedSources))
		for n, src := range namedSources {
			m := analysis.NewTokenMap()
			// Loading from memory fails only on a reader error, which bytes never give.
			_ = m.LoadBytes(src)
			namedLists[n] = m
		}
	})
	m, ok := namedLists[name]
	return m, ok
}

// stopSet builds the words of a stop filter: a named list or explicit words, folded to
// lower case when ignoreCase (terms are then looked up lowercased too).
func stopSet(words any, ignoreCase bool) (analysis.TokenMap, error) {
	switch w := words.(type) {
	case nil:
		m, _ := NamedStopWords("_english_")
		return m, nil
	case string:
		m, ok := NamedStopWords(w)
		if !ok {
			return nil, errorf("unsupported stopwords [%s]", w)
		}
		if !ignoreCase {
			return m, nil
		}
		return wordSet(keys(m), true), nil
	case []any:
		list := make([]string, 0, len(w))
		for _, e := range w {
			s, ok := e.(string)
			if !ok {
				return nil, errorf("stopwords must be strings")
			}
			if m, named := NamedStopWords(s); named {
				list = append(list, keys(m)...)
				continue
			}
			list = append(list, s)
		}
		return wordSet(list, ignoreCase), nil
	}
	return nil, errorf("stopwords must be a list name or a list of words")
}

func wordSet(words []string, fold bool) analysis.TokenMap {
	m := make(analysis.TokenMap, len(words))
	for _, w := range words {
		if fold {
			w = strings.ToLower(w)
		}
		m[w] = true
	}
	return m
}

func keys(m analysis.TokenMap) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
