package eserr

import (
	"fmt"
	"sort"
	"strings"
)

// DidYouMean suggests the candidates close to an unknown field, as Elasticsearch's
// SuggestingErrorOnUnknown does: Levenshtein similarity above one half, closest first.
func DidYouMean(field string, candidates []string) string {
	type scored struct {
		sim  float64
		name string
	}
	var close []scored
	for _, c := range candidates {
		if s := similarity(field, c); s > 0.5 {
			close = append(close, scored{s, c})
		}
	}
	sort.Slice(close, func(i, j int) bool {
		if close[i].sim != close[j].sim {
			return close[i].sim > close[j].sim
		}
		return close[i].name < close[j].name
	})
	switch len(close) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" did you mean [%s]?", close[0].name)
	}
	names := make([]string, len(close))
	for i, c := range close {
		names[i] = c.name
	}
	return fmt.Sprintf(" did you mean any of [%s]?", strings.Join(names, ", "))
}

// similarity is Lucene's LevenshteinDistance: one minus the edit distance over the
// longer length.
func similarity(a, b string) float64 {
	x, y := []rune(a), []rune(b)
	if len(x) == 0 || len(y) == 0 {
		if len(x) == len(y) {
			return 1
		}
		return 0
	}
	prev := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur := make([]int, len(y)+1)
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return 1 - float64(prev[len(y)])/float64(max(len(x), len(y)))
}
