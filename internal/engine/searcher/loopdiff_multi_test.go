package searcher

import (
	"fmt"
	"math/rand"
)

// The random searches' constant_score bands and multi-term queries, as the catalog's
// searches build them (internal/searchquery): a word's variants each a constant_score
// of a match (operator and), a fuzzy match of the words subfield (a typo of an index's
// word), a prefix of it (match_bool_prefix, prefix), joined by dis_max.

// typo is w with one or two random edits: a letter dropped, added, changed or swapped
// with the next.
func typo(r *rand.Rand, w string) string {
	b := []byte(w)
	for n := 1 + r.Intn(2); n > 0 && len(b) > 1; n-- {
		i := r.Intn(len(b) - 1)
		switch r.Intn(4) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			b = append(b[:i], append([]byte{byte('a' + r.Intn(26))}, b[i:]...)...)
		case 2:
			b[i] = byte('a' + r.Intn(26))
		default:
			b[i], b[i+1] = b[i+1], b[i]
		}
	}
	return string(b)
}

// diffWord is an index's word, a typo of one, a prefix of one, or a code (of which the
// descriptions hold hundreds: a short prefix of one expands to many terms).
func diffWord(r *rand.Rand) string {
	w := diffWords[r.Intn(len(diffWords))]
	switch r.Intn(6) {
	case 0, 1:
		return typo(r, w)
	case 2:
		return w[:1+r.Intn(len(w))]
	case 3:
		return diffCode(r)[:1+r.Intn(2)]
	}
	return w
}

// diffCode is a description's code: "x" and a number below 400.
func diffCode(r *rand.Rand) string { return fmt.Sprint("x", r.Intn(400)) }

var textFields = []string{"title", "description", "title.words", "description.words"}

// fuzzyOpts are a typo variant's options, and some others a match query takes.
func fuzzyOpts(r *rand.Rand, m map[string]any) map[string]any {
	m["fuzziness"] = []any{0, 1, 2, "AUTO"}[r.Intn(4)]
	m["prefix_length"] = r.Intn(3)
	m["fuzzy_transpositions"] = r.Intn(3) > 0
	if r.Intn(3) == 0 {
		m["max_expansions"] = 1 + r.Intn(4)
	}
	if r.Intn(5) == 0 {
		m["fuzzy_rewrite"] = []string{"constant_score", "top_terms_boost_3", "top_terms_2"}[r.Intn(3)]
	}
	return m
}

// wordFilter is a random filter of the kinds a catalog search's variants are.
func wordFilter(r *rand.Rand) map[string]any {
	field := textFields[r.Intn(len(textFields))]
	text := diffWord(r)
	if r.Intn(4) == 0 {
		text += " " + diffWord(r)
	}
	opts := map[string]any{"query": text, "operator": []string{"and", "or"}[r.Intn(2)]}
	switch r.Intn(8) {
	case 0, 1:
		return map[string]any{"match": map[string]any{field: fuzzyOpts(r, opts)}}
	case 2:
		return map[string]any{"match_bool_prefix": map[string]any{field: opts}}
	case 3:
		return map[string]any{"prefix": map[string]any{field: diffWord(r)}}
	case 4:
		opts["fields"] = []any{"title.words", "description.words"}
		opts["type"] = []string{"bool_prefix", "best_fields"}[r.Intn(2)]
		if opts["type"] == "best_fields" {
			fuzzyOpts(r, opts)
		}
		return map[string]any{"multi_match": opts}
	case 5:
		return map[string]any{"terms": map[string]any{"brand": []any{fmt.Sprint("b", r.Intn(6)), fmt.Sprint("b", r.Intn(6))}}}
	case 6:
		return map[string]any{"ids": map[string]any{"values": []any{fmt.Sprint(r.Intn(4800)), fmt.Sprint(4500 + r.Intn(300)), fmt.Sprint(r.Intn(5000))}}}
	}
	return map[string]any{"match": map[string]any{field: opts}}
}

// bandFilter is a word filter, or a bool of them (the clauses of a run of words, a
// bury's must_not).
func bandFilter(r *rand.Rand) map[string]any {
	if r.Intn(4) > 0 {
		return wordFilter(r)
	}
	b := map[string]any{}
	for _, occur := range []string{"must", "filter", "should", "must_not"} {
		var qs []any
		for n := r.Intn(3); n > 0; n-- {
			qs = append(qs, wordFilter(r))
		}
		if len(qs) > 0 {
			b[occur] = qs
		}
	}
	if r.Intn(3) == 0 {
		b["filter"] = append(anyList(b["filter"]), map[string]any{"range": map[string]any{"price": map[string]any{"lt": r.Intn(500)}}})
	}
	if r.Intn(3) == 0 {
		b["minimum_should_match"] = r.Intn(3)
	}
	return map[string]any{"bool": b}
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

// band is a constant_score of a random filter, as a level of a catalog search's score.
func band(r *rand.Rand) map[string]any {
	return map[string]any{"constant_score": map[string]any{"boost": 1 + r.Intn(100), "filter": bandFilter(r)}}
}

// variants is a word's variants: constant_score bands joined by dis_max, or a scored
// multi-term query or word filter.
func variants(r *rand.Rand) map[string]any {
	switch r.Intn(6) {
	case 0:
		return map[string]any{"match": map[string]any{textFields[r.Intn(4)]: fuzzyOpts(r, map[string]any{"query": diffWord(r)})}}
	case 1:
		return map[string]any{"prefix": map[string]any{"title.words": map[string]any{"value": diffWord(r), "boost": 1 + r.Intn(3)}}}
	case 2:
		return band(r)
	case 3:
		return wordFilter(r) // scored: BM25 of its terms, a constant of its prefix
	}
	var qs []any
	for n := 1 + r.Intn(4); n > 0; n-- {
		qs = append(qs, band(r))
	}
	dm := map[string]any{"queries": qs}
	if r.Intn(3) == 0 {
		dm["tie_breaker"] = float64(r.Intn(10)) / 10
	}
	return map[string]any{"dis_max": dm}
}
