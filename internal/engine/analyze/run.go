package analyze

import (
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Index is what _analyze needs of the index a request is scoped to.
type Index struct {
	Analysis *mapper.Analysis
	// Leaf returns the mapped field at a path, or nil.
	Leaf func(path string) *mapper.Leaf
	// MaxTokens is index.analyze.max_token_count.
	MaxTokens int
}

// DefaultMaxTokens is ES's index.analyze.max_token_count, which also bounds requests
// that name no index.
const DefaultMaxTokens = 10000

// Run answers an _analyze request; ix is nil for a request that names no index.
func Run(r *Request, ix *Index) (map[string]any, error) {
	chain, err := resolve(r, ix)
	if err != nil {
		return nil, err
	}
	max := DefaultMaxTokens
	if ix != nil {
		max = ix.MaxTokens
	}
	s := newStages(chain, r.Text, max, r.Attributes)
	if !r.Explain {
		toks, err := s.final()
		if err != nil {
			return nil, err
		}
		return map[string]any{"tokens": toks}, nil
	}
	detail, err := s.explain()
	if err != nil {
		return nil, err
	}
	return map[string]any{"detail": detail}, nil
}

// resolve finds the analyzer a request asks for, as ES's TransportAnalyzeAction does: a
// named analyzer, a chain given in the request, a field's analyzer, else the index's
// default analyzer (standard without an index).
func resolve(r *Request, ix *Index) (*mapper.Chain, error) {
	var a *mapper.Analysis
	scope := "global"
	if ix != nil {
		a, scope = ix.Analysis, ""
	}
	switch {
	case r.Analyzer != "":
		return named(r.Analyzer, a, scope)
	case r.Tokenizer != nil || len(r.Filters) > 0:
		return mapper.RequestChain(r.Tokenizer, r.Filters, a, scope)
	case r.Field != "":
		if ix == nil {
			return nil, eserr.IllegalArgument("analysis based on a specific field requires an index")
		}
		return fieldChain(r.Field, ix)
	}
	return named(defaultAnalyzer(a), a, scope)
}

func named(name string, a *mapper.Analysis, scope string) (*mapper.Chain, error) {
	c, err := mapper.NamedChain(name, a)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, eserr.IllegalArgument("failed to find %sanalyzer [%s]", spaced(scope), name)
	}
	return c, nil
}

func defaultAnalyzer(a *mapper.Analysis) string {
	if a != nil {
		if _, ok := a.Analyzer["default"]; ok {
			return "default"
		}
	}
	return "standard"
}

// fieldChain is the index analyzer of a field: text fields' own, keyword's whole value;
// an unmapped field takes the index's default analyzer.
func fieldChain(field string, ix *Index) (*mapper.Chain, error) {
	leaf := ix.Leaf(field)
	var c *mapper.Chain
	var err error
	switch {
	case leaf == nil:
		return named(defaultAnalyzer(ix.Analysis), ix.Analysis, "")
	case leaf.Type == "text":
		c, err = named(leaf.Analyzer, ix.Analysis, "")
	case leaf.Type == "keyword":
		c, err = named("keyword", ix.Analysis, "")
	default:
		return nil, eserr.IllegalArgument("Can't process field [%s], Analysis requests are only supported on tokenized fields", field)
	}
	if err != nil {
		return nil, err
	}
	// A text field puts its position_increment_gap between values whatever its analyzer.
	c.PositionGap = 100
	return c, nil
}

func spaced(scope string) string {
	if scope == "" {
		return ""
	}
	return scope + " "
}
