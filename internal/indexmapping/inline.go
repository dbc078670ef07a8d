package indexmapping

import (
	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// TextChain is the analysis of AnalyzerText for lang written out for an _analyze
// request that names no index: the tokenizer and the filters, each of the index's own
// filters given by its definition. So text is analysed exactly as a physical index of
// that language analyses its searchable fields, whatever physical index (if any) the
// alias points at: the merchandising rules' patterns and the queries they are matched
// against are read this way (internal/merch).
func TextChain(lang searchv1alpha1.Language) map[string]any {
	c := chainOf(lang)
	filters := make([]any, len(c.text))
	for i, name := range c.text {
		if def, ok := c.filters[name]; ok {
			filters[i] = def
			continue
		}
		filters[i] = name
	}
	return map[string]any{"tokenizer": "standard", "filter": filters}
}
