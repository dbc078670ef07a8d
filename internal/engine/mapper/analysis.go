package mapper

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/whitespace"
	"github.com/blevesearch/bleve/v2/analysis/tokenmap"
	blevemapping "github.com/blevesearch/bleve/v2/mapping"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Analysis is the "analysis" block of index settings.
type Analysis struct {
	Analyzer map[string]map[string]any `json:"analyzer,omitempty"`
	Filter   map[string]map[string]any `json:"filter,omitempty"`
}

// BleveAnalyzer is the name under which an ES analyzer is registered in the bleve mapping.
// Built-in ES analyzers are prefixed "es:" and custom ones "u:" so they never collide with
// bleve's own built-ins (bleve's "standard" drops English stop words; ES's does not).
func BleveAnalyzer(esName string, a *Analysis) string {
	if a != nil {
		if _, ok := a.Analyzer[esName]; ok {
			return "u:" + esName
		}
	}
	if esName == "default" || esName == "" {
		if a != nil {
			if _, ok := a.Analyzer["default"]; ok {
				return "u:default"
			}
		}
		return "es:standard"
	}
	return "es:" + esName
}

var builtinAnalyzers = map[string]map[string]any{
	"es:standard":   {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name}},
	"es:simple":     {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name}},
	"es:whitespace": {"type": custom.Name, "tokenizer": whitespace.Name},
	"es:english":    {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{en.PossessiveName, lowercase.Name, en.StopName, porter.Name}},
	"es:keyword":    {"type": custom.Name, "tokenizer": single.Name},
	"es:stop":       {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name, en.StopName}},
}

// BuildIndexMapping returns a bleve index mapping that knows every analyzer the index can
// use. Documents are built by hand (see Document), so the document mapping stays empty and
// non-dynamic: bleve never guesses field types.
func BuildIndexMapping(a *Analysis) (*blevemapping.IndexMappingImpl, error) {
	im := blevemapping.NewIndexMapping()
	im.ScoringModel = "bm25"
	im.DefaultAnalyzer = "es:standard"
	im.DefaultMapping = blevemapping.NewDocumentStaticMapping()
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	names := make([]string, 0, len(builtinAnalyzers))
	for n := range builtinAnalyzers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := im.AddCustomAnalyzer(n, builtinAnalyzers[n]); err != nil {
			return nil, err
		}
	}
	if err := im.AddCustomAnalyzer("keyword", map[string]any{"type": keyword.Name}); err != nil && false {
		return nil, err
	}
	if a == nil {
		return im, nil
	}
	if err := addFilters(im, a); err != nil {
		return nil, err
	}
	anames := make([]string, 0, len(a.Analyzer))
	for n := range a.Analyzer {
		anames = append(anames, n)
	}
	sort.Strings(anames)
	for _, n := range anames {
		cfg, err := analyzerConfig(n, a.Analyzer[n], a)
		if err != nil {
			return nil, err
		}
		if err := im.AddCustomAnalyzer("u:"+n, cfg); err != nil {
			return nil, eserr.IllegalArgument("failed to build analyzer [%s]: %s", n, err.Error())
		}
	}
	return im, nil
}

func addFilters(im *blevemapping.IndexMappingImpl, a *Analysis) error {
	for name, f := range a.Filter {
		typ, _ := f["type"].(string)
		switch typ {
		case "synonym", "synonym_graph":
			syn, ok := f["synonyms"].([]any)
			if !ok {
				return eserr.IllegalArgument("synonym requires either `synonyms`, `synonyms_set` or `synonyms_path` to be configured")
			}
			if err := im.AddCustomTokenFilter("u:"+name, map[string]any{"type": synonymFilterType, "synonyms": syn}); err != nil {
				return eserr.IllegalArgument("failed to build synonyms: %s", err.Error())
			}
		case "stemmer":
			lang, _ := f["language"].(string)
			if lang == "" {
				lang, _ = f["name"].(string)
			}
			if lang != "english" && lang != "porter" && lang != "light_english" && lang != "minimal_english" {
				return eserr.IllegalArgument("unsupported stemmer language [%s]", lang)
			}
		case "stop":
			if err := addStop(im, name, f["stopwords"]); err != nil {
				return err
			}
		case "lowercase", "asciifolding", "porter_stem":
		default:
			return eserr.IllegalArgument("Unknown filter type [%s] for [%s]", typ, name)
		}
	}
	return nil
}

func addStop(im *blevemapping.IndexMappingImpl, name string, words any) error {
	list, ok := words.([]any)
	if !ok {
		if s, _ := words.(string); s != "" && s != "_english_" {
			return eserr.IllegalArgument("unsupported stopwords [%s]", s)
		}
		return nil
	}
	if err := im.AddCustomTokenMap("u:"+name+":words", map[string]any{"type": tokenmap.Name, "tokens": list}); err != nil {
		return eserr.IllegalArgument("invalid stopwords: %s", err.Error())
	}
	return im.AddCustomTokenFilter("u:"+name, map[string]any{"type": stop.Name, "stop_token_map": "u:" + name + ":words"})
}

var builtinFilters = map[string]string{
	"lowercase": lowercase.Name, "asciifolding": foldFilterType, "stop": en.StopName,
	"porter_stem": porter.Name, "kstem": porter.Name,
}

func analyzerConfig(name string, def map[string]any, a *Analysis) (map[string]any, error) {
	typ, _ := def["type"].(string)
	if typ != "" && typ != "custom" {
		if _, ok := builtinAnalyzers["es:"+typ]; ok {
			return builtinAnalyzers["es:"+typ], nil
		}
		return nil, eserr.IllegalArgument("Unknown analyzer type [%s] for [%s]", typ, name)
	}
	tok, _ := def["tokenizer"].(string)
	btok := map[string]string{"standard": standardTokenizer, "whitespace": whitespace.Name, "keyword": single.Name}[tok]
	if btok == "" {
		return nil, eserr.IllegalArgument("failed to find tokenizer under name [%s]", tok)
	}
	var filters []any
	raw, _ := def["filter"].([]any)
	for _, f := range raw {
		fn, _ := f.(string)
		bf, err := filterName(fn, a)
		if err != nil {
			return nil, eserr.IllegalArgument("Custom Analyzer [%s] failed to find filter under name [%s]", name, fn)
		}
		if bf != "" {
			filters = append(filters, bf)
		}
	}
	return map[string]any{"type": custom.Name, "tokenizer": btok, "token_filters": filters}, nil
}

func filterName(fn string, a *Analysis) (string, error) {
	if def, ok := a.Filter[fn]; ok {
		switch def["type"] {
		case "stemmer":
			return porter.Name, nil
		case "lowercase", "asciifolding", "porter_stem":
			return builtinFilters[def["type"].(string)], nil
		case "stop":
			if _, ok := def["stopwords"].([]any); ok {
				return "u:" + fn, nil
			}
			return en.StopName, nil
		}
		return "u:" + fn, nil
	}
	if bf, ok := builtinFilters[fn]; ok {
		return bf, nil
	}
	return "", fmt.Errorf("unknown filter %s", fn)
}

// ParseAnalysis decodes the analysis block of settings (nil when absent).
func ParseAnalysis(raw any) (*Analysis, error) {
	if raw == nil {
		return nil, nil
	}
	b, _ := json.Marshal(raw)
	a := &Analysis{}
	if err := json.Unmarshal(b, a); err != nil {
		return nil, eserr.IllegalArgument("invalid analysis settings: %s", err.Error())
	}
	return a, nil
}

// KnownAnalyzer reports whether an analyzer name can be used by a mapping.
func KnownAnalyzer(name string, a *Analysis) bool {
	if a != nil {
		if _, ok := a.Analyzer[name]; ok {
			return true
		}
	}
	_, ok := builtinAnalyzers["es:"+name]
	return ok || name == "default"
}
