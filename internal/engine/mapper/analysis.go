package mapper

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/single"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/whitespace"
	blevemapping "github.com/blevesearch/bleve/v2/mapping"

	// Filters that analyzers stored by earlier releases name: bleve rebuilds a stored
	// index mapping when it opens an index, and fails if a type is missing.
	_ "github.com/blevesearch/bleve/v2/analysis/lang/en"
	_ "github.com/blevesearch/bleve/v2/analysis/token/stop"
	_ "github.com/blevesearch/bleve/v2/analysis/tokenmap"

	"github.com/aislehq/aisle/internal/engine/esanalysis"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Analysis is the "analysis" block of index settings.
type Analysis struct {
	Analyzer   map[string]map[string]any `json:"analyzer,omitempty"`
	Filter     map[string]map[string]any `json:"filter,omitempty"`
	Tokenizer  map[string]map[string]any `json:"tokenizer,omitempty"`
	CharFilter map[string]map[string]any `json:"char_filter,omitempty"`
	Normalizer map[string]map[string]any `json:"normalizer,omitempty"`
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

// builtinAnalyzers are ES's built-in analyzers other than the language ones.
var builtinAnalyzers = map[string]map[string]any{
	"es:standard":   {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name}},
	"es:simple":     {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name}},
	"es:whitespace": {"type": custom.Name, "tokenizer": whitespace.Name},
	"es:keyword":    {"type": custom.Name, "tokenizer": single.Name},
	"es:stop":       {"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": []any{lowercase.Name, "es:stop"}},
}

// tokenizers are ES's tokenizers the engine has, by their bleve names.
var tokenizers = map[string]string{"standard": standardTokenizer, "whitespace": whitespace.Name, "keyword": single.Name}

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
	if err := addBuiltins(im); err != nil {
		return nil, err
	}
	if a == nil {
		return im, nil
	}
	for _, n := range sortedNames(a.Filter) {
		if err := addFilter(im, "u:"+n, a.Filter[n], n); err != nil {
			return nil, err
		}
	}
	for _, n := range sortedNames(a.Analyzer) {
		cfg, err := analyzerConfig(im, n, a.Analyzer[n], a)
		if err != nil {
			return nil, err
		}
		if err := im.AddCustomAnalyzer("u:"+n, cfg); err != nil {
			return nil, eserr.IllegalArgument("failed to build analyzer [%s]: %s", n, err.Error())
		}
	}
	return im, nil
}

// addBuiltins registers ES's pre-configured filters ("es:<name>"), its built-in analyzers
// and its language analyzers, whose filters are "es:<language>/<i>".
func addBuiltins(im *blevemapping.IndexMappingImpl) error {
	for _, n := range esanalysis.PreconfiguredNames() {
		def, _ := esanalysis.Preconfigured(n)
		if err := addFilter(im, "es:"+n, def, n); err != nil {
			return err
		}
	}
	for _, n := range sortedNames(builtinAnalyzers) {
		if err := im.AddCustomAnalyzer(n, builtinAnalyzers[n]); err != nil {
			return err
		}
	}
	for _, lang := range esanalysis.Languages() {
		cfg, err := languageConfig(im, "es:"+lang, lang, nil)
		if err != nil {
			return err
		}
		if err := im.AddCustomAnalyzer("es:"+lang, cfg); err != nil {
			return err
		}
	}
	return nil
}

// languageConfig registers the filters of a language analyzer under prefix and returns the
// analyzer's bleve config.
func languageConfig(im *blevemapping.IndexMappingImpl, prefix, lang string, params map[string]any) (map[string]any, error) {
	defs, _, err := esanalysis.LanguageFilters(lang, params)
	if err != nil {
		return nil, eserr.IllegalArgument("%s", err.Error())
	}
	names := make([]any, len(defs))
	for i, d := range defs {
		names[i] = fmt.Sprintf("%s/%d", prefix, i)
		if err := addFilter(im, names[i].(string), d, lang); err != nil {
			return nil, err
		}
	}
	return map[string]any{"type": custom.Name, "tokenizer": standardTokenizer, "token_filters": names}, nil
}

// addFilter registers the bleve filter for an ES filter definition under bleveName; esName
// names it in errors.
func addFilter(im *blevemapping.IndexMappingImpl, bleveName string, def map[string]any, esName string) error {
	cfg, err := esanalysis.FilterConfig(def)
	if errors.Is(err, esanalysis.ErrUnknownType) {
		return eserr.IllegalArgument("Unknown filter type [%v] for [%s]", def["type"], esName)
	}
	if err != nil {
		return eserr.IllegalArgument("%s", err.Error())
	}
	if err := im.AddCustomTokenFilter(bleveName, cfg); err != nil {
		return eserr.IllegalArgument("failed to build filter [%s]: %s", esName, err.Error())
	}
	return nil
}

// ValidateAnalysis refuses, for a new index, the custom tokenizers, char filters and
// normalizers the engine does not build: ignoring them would analyze differently from ES.
// Indices created before this check keep opening (BuildIndexMapping ignores them).
func ValidateAnalysis(a *Analysis) error {
	if a == nil {
		return nil
	}
	parts := []struct {
		kind string
		defs map[string]map[string]any
	}{{"char_filter", a.CharFilter}, {"normalizer", a.Normalizer}, {"tokenizer", a.Tokenizer}}
	for _, p := range parts {
		if names := sortedNames(p.defs); len(names) > 0 {
			return eserr.IllegalArgument("custom %s [%s] is not supported by this engine", p.kind, names[0])
		}
	}
	for _, n := range sortedNames(a.Analyzer) {
		if cf := a.Analyzer[n]["char_filter"]; len(listOf(cf)) > 0 {
			return eserr.IllegalArgument("analyzer [%s]: char_filter is not supported by this engine", n)
		}
	}
	return nil
}

func analyzerConfig(im *blevemapping.IndexMappingImpl, name string, def map[string]any, a *Analysis) (map[string]any, error) {
	typ, _ := def["type"].(string)
	if typ != "" && typ != "custom" {
		if _, ok := builtinAnalyzers["es:"+typ]; ok {
			return builtinAnalyzers["es:"+typ], nil
		}
		if languageSet[typ] {
			return languageConfig(im, "u:"+name, typ, def)
		}
		return nil, eserr.IllegalArgument("Unknown analyzer type [%s] for [%s]", typ, name)
	}
	tok, _ := def["tokenizer"].(string)
	btok := tokenizers[tok]
	if btok == "" {
		return nil, eserr.IllegalArgument("failed to find tokenizer under name [%s]", tok)
	}
	var filters []any
	for _, f := range listOf(def["filter"]) {
		fn, _ := f.(string)
		bf, ok := FilterName(fn, a)
		if !ok {
			return nil, eserr.IllegalArgument("Custom Analyzer [%s] failed to find filter under name [%s]", name, fn)
		}
		filters = append(filters, bf)
	}
	return map[string]any{"type": custom.Name, "tokenizer": btok, "token_filters": filters}, nil
}

// FilterName resolves a filter an analyzer names: the index's own definitions first, then
// ES's pre-configured filters.
func FilterName(fn string, a *Analysis) (string, bool) {
	if a != nil {
		if _, ok := a.Filter[fn]; ok {
			return "u:" + fn, true
		}
	}
	if _, ok := esanalysis.Preconfigured(fn); ok {
		return "es:" + fn, true
	}
	return "", false
}

func listOf(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return x
	}
	return []any{v}
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
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
	return BuiltinAnalyzer(name) || name == "default"
}

// BuiltinAnalyzer reports whether name is one of ES's built-in analyzers the engine has.
func BuiltinAnalyzer(name string) bool {
	_, ok := builtinAnalyzers["es:"+name]
	return ok || languageSet[name]
}

var languageSet = func() map[string]bool {
	out := map[string]bool{}
	for _, l := range esanalysis.Languages() {
		out[l] = true
	}
	return out
}()
