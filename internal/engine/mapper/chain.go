package mapper

import (
	"fmt"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// Chain is an analyzer taken apart as ES's _analyze shows it: its tokenizer and token
// filters, each under the name ES gives it in an explain.
type Chain struct {
	Analyzer *analysis.DefaultAnalyzer
	// Name is a named analyzer's name; Custom is set for analyzers built from a tokenizer
	// and filters (an index's custom analyzers and those a request defines), whose explain
	// shows every step.
	Name   string
	Custom bool
	// Tokenizer names the tokenizer and TokenizerType is its ES type, which names the
	// types of its tokens.
	Tokenizer, TokenizerType string
	Filters                  []string
	// PositionGap separates the positions of two texts: ES's custom analyzers put 100
	// between values, its built-in ones 0.
	PositionGap int
}

// builtinTokenizer is the tokenizer of each built-in analyzer that has no standard one.
var builtinTokenizer = map[string]string{"whitespace": "whitespace", "keyword": "keyword"}

// NamedChain returns the analyzer an index (a, nil for none) knows by name, or nil.
func NamedChain(name string, a *Analysis) (*Chain, error) {
	if !KnownAnalyzer(name, a) {
		return nil, nil
	}
	im, err := BuildIndexMapping(a)
	if err != nil {
		return nil, err
	}
	bleveName := BleveAnalyzer(name, a)
	c := &Chain{Name: name, Tokenizer: "standard", TokenizerType: "standard"}
	if t, ok := builtinTokenizer[name]; ok {
		c.Tokenizer, c.TokenizerType = t, t
	}
	if a != nil {
		if def, ok := a.Analyzer[name]; ok {
			c.fromDef(def)
		}
	}
	c.Analyzer, _ = im.AnalyzerNamed(bleveName).(*analysis.DefaultAnalyzer)
	if c.Analyzer == nil {
		return nil, eserr.IllegalArgument("failed to build analyzer [%s]", name)
	}
	return c, nil
}

// fromDef takes the parts of an index's analyzer definition.
func (c *Chain) fromDef(def map[string]any) {
	c.PositionGap = 100
	typ, _ := def["type"].(string)
	if t, ok := builtinTokenizer[typ]; ok {
		c.Tokenizer, c.TokenizerType = t, t
	}
	if typ != "" && typ != "custom" {
		return
	}
	c.Custom = true
	c.Tokenizer, _ = def["tokenizer"].(string)
	c.TokenizerType = c.Tokenizer
	for _, f := range listOf(def["filter"]) {
		c.Filters = append(c.Filters, fmt.Sprint(f))
	}
}

// RequestChain builds the analyzer a request defines: a tokenizer (a name or an inline
// definition, keyword when absent) and filters (names of the index's or ES's filters, or
// inline definitions). scope is "global" without an index and "" with one, as ES's
// messages say.
func RequestChain(tokenizer any, filters []any, a *Analysis, scope string) (*Chain, error) {
	im, err := BuildIndexMapping(a)
	if err != nil {
		return nil, err
	}
	c := &Chain{Custom: true}
	btok, err := c.tokenizer(tokenizer, scope)
	if err != nil {
		return nil, err
	}
	names := make([]any, 0, len(filters))
	for i, f := range filters {
		switch x := f.(type) {
		case string:
			bf, ok := FilterName(x, a)
			if !ok {
				return nil, eserr.IllegalArgument("failed to find %sfilter under [%s]", scopeWord(scope), x)
			}
			names = append(names, bf)
			c.Filters = append(c.Filters, x)
		case map[string]any:
			bf := fmt.Sprintf("req:%d", i)
			name := fmt.Sprintf("__anonymous__%v", x["type"])
			if err := addFilter(im, bf, x, name); err != nil {
				return nil, err
			}
			names = append(names, bf)
			c.Filters = append(c.Filters, name)
		default:
			return nil, eserr.Parsing("[analyze_request] filter must be a name or a definition")
		}
	}
	cfg := map[string]any{"type": custom.Name, "tokenizer": btok, "token_filters": names}
	if err := im.AddCustomAnalyzer("req", cfg); err != nil {
		return nil, eserr.IllegalArgument("failed to build analyzer: %s", err.Error())
	}
	c.Analyzer, _ = im.AnalyzerNamed("req").(*analysis.DefaultAnalyzer)
	return c, nil
}

func (c *Chain) tokenizer(v any, scope string) (string, error) {
	switch x := v.(type) {
	case nil:
		c.Tokenizer, c.TokenizerType = "keyword", "keyword"
	case string:
		c.Tokenizer, c.TokenizerType = x, x
	case map[string]any:
		c.TokenizerType = fmt.Sprint(x["type"])
		c.Tokenizer = "__anonymous__" + c.TokenizerType
		if len(x) > 1 {
			return "", eserr.IllegalArgument("tokenizer parameters are not supported by this engine")
		}
	default:
		return "", eserr.Parsing("[analyze_request] tokenizer must be a name or a definition")
	}
	btok, ok := tokenizers[c.TokenizerType]
	if !ok {
		return "", eserr.IllegalArgument("failed to find %stokenizer under [%s]", scopeWord(scope), c.TokenizerType)
	}
	return btok, nil
}

func scopeWord(scope string) string {
	if scope == "" {
		return ""
	}
	return scope + " "
}
