package dsl

import (
	"fmt"
	"strings"
)

// The words more_like_this weighs: those of its like texts, analyzed as free text, and
// those of its like documents, analyzed field by field as the fields index them (what
// Elasticsearch's term vectors of the documents hold).

// analyzerFor is the analyzer of like texts: the query's, else the first field's search
// analyzer, as Elasticsearch analyzes free text with the first field only.
func (q *mlt) analyzerFor(c *Context, fields []string) string {
	if q.analyzer != "" {
		return q.analyzer
	}
	if l := c.Leaf(fields[0]); l != nil && l.SearchAnalyzer != "" {
		return l.SearchAnalyzer
	}
	return "standard"
}

// textTerms counts the words of texts, analyzed for the first field.
func (q *mlt) textTerms(c *Context, texts []string, fields []string, sel termSelection) map[string]int {
	freqs := map[string]int{}
	analyzer := q.analyzerFor(c, fields)
	for _, t := range texts {
		for _, w := range c.Analyze(analyzer, t) {
			if !sel.noise(w) && !sel.skip[fields[0]+"\x00"+w] {
				freqs[w]++
			}
		}
	}
	return freqs
}

// unlikeTerms are the words of the unlike texts and documents: never selected.
func (q *mlt) unlikeTerms(c *Context, fields []string) (map[string]bool, error) {
	skip := map[string]bool{}
	if len(q.unlikeTexts) > 0 {
		analyzer := q.analyzerFor(c, fields)
		for _, t := range q.unlikeTexts {
			for _, w := range c.Analyze(analyzer, t) {
				skip[fields[0]+"\x00"+w] = true
			}
		}
	}
	if len(q.unlikeItems) == 0 {
		return skip, nil
	}
	freqs, err := q.itemTerms(c, q.unlikeItems, fields)
	for f, words := range freqs {
		for w := range words {
			skip[f+"\x00"+w] = true
		}
	}
	return skip, err
}

// itemTerms counts the words of each field of the items' documents, as their term
// vectors would: each value analyzed as the field indexes it.
func (q *mlt) itemTerms(c *Context, items []mltItem, fields []string) (map[string]map[string]int, error) {
	out := map[string]map[string]int{}
	for _, it := range items {
		src := it.doc
		if src == nil {
			var found bool
			var err error
			if src, found, err = c.Corpus.Source(it.index, it.id); err != nil {
				return nil, err
			} else if !found {
				continue
			}
		}
		for _, f := range itemFields(c, it, fields) {
			countField(c, out, f, src)
		}
	}
	return out, nil
}

// itemFields are the fields of an item: its own, else the query's for an indexed
// document, else every text and keyword field (an artificial document's are all read).
func itemFields(c *Context, it mltItem, fields []string) []string {
	if len(it.fields) > 0 {
		return it.fields
	}
	if it.doc != nil {
		var out []string
		for _, p := range c.Leaves() {
			if supportedMLT(c, p) {
				out = append(out, p)
			}
		}
		return out
	}
	return fields
}

// countField adds the terms field indexes for src's values to out[field].
func countField(c *Context, out map[string]map[string]int, field string, src map[string]any) {
	l := c.Leaf(field)
	if l == nil || !supportedMLT(c, field) {
		return
	}
	for _, v := range sourceValues(src, field) {
		text, ok := v.(string)
		if !ok {
			text = fmt.Sprint(v)
		}
		words := []string{text}
		if l.Mapped != "keyword" {
			words = c.Analyze(l.Analyzer, text)
		} else if l.IgnoreAbove > 0 && len([]rune(text)) > l.IgnoreAbove {
			continue
		}
		if out[field] == nil {
			out[field] = map[string]int{}
		}
		for _, w := range words {
			out[field][w]++
		}
	}
}

// sourceValues are the scalar values at a dotted path of a source; a multi-field
// (title.keyword) reads its parent's values.
func sourceValues(src map[string]any, path string) []any {
	var cur []any = []any{src}
	parts := strings.Split(path, ".")
	for i := 0; i < len(parts); i++ {
		var next []any
		for _, v := range flatten(cur) {
			obj, ok := v.(map[string]any)
			if !ok {
				if i == len(parts)-1 && i > 0 {
					next = append(next, v) // the parent holds values: a multi-field
				}
				continue
			}
			if x, ok := obj[parts[i]]; ok {
				next = append(next, x)
			} else if rest := strings.Join(parts[i:], "."); i < len(parts)-1 {
				if x, ok := obj[rest]; ok { // a dotted key in the source
					return scalars(flatten([]any{x}))
				}
			}
		}
		cur = next
	}
	return scalars(flatten(cur))
}

func flatten(vs []any) []any {
	var out []any
	for _, v := range vs {
		if arr, ok := v.([]any); ok {
			out = append(out, flatten(arr)...)
			continue
		}
		out = append(out, v)
	}
	return out
}

func scalars(vs []any) []any {
	out := vs[:0]
	for _, v := range vs {
		switch v.(type) {
		case map[string]any, nil:
			continue
		}
		out = append(out, v)
	}
	return out
}
