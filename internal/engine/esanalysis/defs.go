package esanalysis

import (
	"errors"
	"sort"

	"github.com/blevesearch/bleve/v2/analysis/lang/de"
	"github.com/blevesearch/bleve/v2/analysis/token/apostrophe"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

// Def is an ES token filter definition: {"type": "stop", "stopwords": "_german_"}.
type Def = map[string]any

// ErrUnknownType marks a filter definition whose type the engine does not know.
var ErrUnknownType = errors.New("unknown filter type")

// FilterConfig translates an ES token filter definition into the config of the bleve
// token filter that implements it. Parameters are checked when bleve builds the filter.
func FilterConfig(def Def) (map[string]any, error) {
	typ, _ := def["type"].(string)
	pass := func(bleveType string, params ...string) map[string]any {
		out := map[string]any{"type": bleveType}
		for _, p := range params {
			if v, ok := def[p]; ok {
				out[p] = v
			}
		}
		return out
	}
	switch typ {
	case "lowercase":
		if _, ok := def["language"]; ok {
			return pass(TypeLowercase, "language"), nil
		}
		return pass(lowercase.Name), nil
	case "asciifolding":
		return pass(TypeFold, "preserve_original"), nil
	case "stop":
		if v, ok := def["remove_trailing"]; ok && !Bool(v) {
			return nil, errors.New("stop [remove_trailing: false] is not supported by this engine")
		}
		return pass(TypeStop, "stopwords", "ignore_case"), nil
	case "stemmer":
		out := pass(TypeStemmer, "language")
		if _, ok := out["language"]; !ok {
			out["language"] = def["name"]
		}
		return out, nil
	case "snowball":
		return pass(TypeSnowball, "language"), nil
	case "porter_stem", "kstem":
		return pass(porter.Name), nil
	case "elision":
		return pass(TypeElision, "articles", "articles_case"), nil
	case "keyword_marker":
		return pass(TypeKeywordMarker, "keywords", "ignore_case", "keywords_pattern"), nil
	case "stemmer_override":
		return pass(TypeStemmerOverride, "rules"), nil
	case "german_normalization":
		return pass(de.NormalizeName), nil
	case "apostrophe":
		return pass(apostrophe.Name), nil
	case "dutch_stem":
		return map[string]any{"type": TypeSnowball, "language": "dutch"}, nil
	case "french_stem":
		return map[string]any{"type": TypeSnowball, "language": "french"}, nil
	case "russian_stem":
		return map[string]any{"type": TypeSnowball, "language": "russian"}, nil
	case "synonym", "synonym_graph":
		if _, ok := def["synonyms"].([]any); !ok {
			return nil, errors.New("synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured")
		}
		return pass(TypeSynonym, "synonyms"), nil
	}
	return nil, ErrUnknownType
}

// preconfigured are ES's pre-configured token filters the engine has, usable by name
// without a definition.
var preconfigured = map[string]Def{
	"lowercase":            {"type": "lowercase"},
	"asciifolding":         {"type": "asciifolding"},
	"stop":                 {"type": "stop", "stopwords": "_english_"},
	"porter_stem":          {"type": "porter_stem"},
	"kstem":                {"type": "kstem"},
	"stemmer":              {"type": "stemmer", "language": "english"},
	"snowball":             {"type": "snowball", "language": "English"},
	"elision":              {"type": "elision", "articles": anyList(FrenchArticles), "articles_case": true},
	"german_normalization": {"type": "german_normalization"},
	"apostrophe":           {"type": "apostrophe"},
	"dutch_stem":           {"type": "dutch_stem"},
	"french_stem":          {"type": "french_stem"},
	"russian_stem":         {"type": "russian_stem"},
}

// Preconfigured returns the definition of one of ES's pre-configured token filters.
func Preconfigured(name string) (Def, bool) {
	d, ok := preconfigured[name]
	return d, ok
}

// PreconfiguredNames lists the pre-configured filters, sorted.
func PreconfiguredNames() []string { return sortedKeys(preconfigured) }

func anyList(words []string) []any {
	out := make([]any, len(words))
	for i, w := range words {
		out[i] = w
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
