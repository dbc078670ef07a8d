package searchquery

import (
	"fmt"
	"strings"
)

// Ties of the last criterion are broken by how well the text matches: BM25 over the
// searchable fields (multi_match best_fields, each field boosted by its weight), as
// Elasticsearch scores a plain query. It is added to the score scaled into its fraction,
// below tailShare, so that it never reaches the next level of the last band: a score's
// integer part still decodes into the criteria's levels, and float32 keeps the fraction
// as long as the bands stay below tailLimit.
const (
	tailShare = 0.45
	tailLimit = 1 << 22
)

// tieBreak is the BM25 clause of a query.
type tieBreak struct {
	text   string
	fields []field
	boost  float64
}

// tieBreak bounds BM25 for the query's words: Lucene's BM25 of a term is below its
// boost times its idf, and no field's idf exceeds that of a term one record holds.
func (p textPlan) tieBreak(stats WordStats) *tieBreak {
	var words []string
	for i, w := range p.words.kept {
		if p.weights == nil || p.weights[i] > 0 {
			words = append(words, w.text)
		}
	}
	if len(words) == 0 {
		return nil
	}
	n := stats.Records
	if n <= 0 {
		n = 1 << 31
	}
	t := &tieBreak{text: strings.Join(words, " "), fields: p.fields}
	heaviest := int32(1)
	for _, f := range p.fields {
		heaviest = max(heaviest, f.weight)
	}
	// Each typed word may analyse into more than one term: count the tokens.
	terms := len(splitWords(t.text)) + len(words)
	t.boost = tailShare / (float64(heaviest) * float64(terms) * idf(1, n))
	return t
}

func (t *tieBreak) clause() any {
	switch len(t.fields) {
	case 0:
		return textMatch(nil, t.text, map[string]any{"boost": t.boost})
	case 1:
		f := t.fields[0]
		return textMatch([]string{f.path}, t.text, map[string]any{"boost": t.boost * float64(f.weight)})
	}
	paths := make([]string, len(t.fields))
	for i, f := range t.fields {
		paths[i] = fmt.Sprintf("%s^%d", f.path, f.weight)
	}
	return textMatch(paths, t.text, map[string]any{"boost": t.boost})
}
