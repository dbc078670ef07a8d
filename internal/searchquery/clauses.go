package searchquery

// Builders of the Elasticsearch clauses the ranking is made of.

// constant scores its filter's matches with boost: a level of the score.
func constant(filter any, boost int64) map[string]any {
	return map[string]any{"constant_score": map[string]any{"filter": filter, "boost": boost}}
}

// disMax scores the best of its queries (tie_breaker 0): the best variant of a word.
func disMax(queries []any) any {
	if len(queries) == 1 {
		return queries[0]
	}
	return map[string]any{"dis_max": map[string]any{"queries": queries}}
}

// textMatch matches text on fields with opts: match for one field, multi_match for
// several, and multi_match on every field (lenient, as the index's default analyzer
// says) when fields is nil.
func textMatch(fields []string, text string, opts map[string]any) map[string]any {
	if len(fields) == 1 {
		m := map[string]any{"query": text}
		kind := "match"
		for k, v := range opts {
			if k == "type" {
				kind = singleFieldQuery[v.(string)]
				continue
			}
			m[k] = v
		}
		return map[string]any{kind: map[string]any{fields[0]: m}}
	}
	m := map[string]any{"query": text}
	if fields == nil {
		m["lenient"] = true
	} else {
		m["fields"] = fields
	}
	for k, v := range opts {
		m[k] = v
	}
	return map[string]any{"multi_match": m}
}

// singleFieldQuery is the query of one field for a multi_match type.
var singleFieldQuery = map[string]string{"phrase": "match_phrase", "bool_prefix": "match_bool_prefix", "best_fields": "match"}

// Options of the variants.
var (
	allWords = map[string]any{"operator": "and"}
	phrase   = map[string]any{"type": "phrase"}
	prefixOf = map[string]any{"type": "bool_prefix", "operator": "and"}
)

// fuzzy is the option set of a typo variant.
func fuzzy(edits, prefixLength int) map[string]any {
	return map[string]any{"operator": "and", "fuzziness": edits, "prefix_length": prefixLength, "fuzzy_transpositions": true}
}

func boolQ(clauses map[string][]any) map[string]any {
	b := map[string]any{}
	for occur, qs := range clauses {
		if len(qs) > 0 {
			b[occur] = qs
		}
	}
	return map[string]any{"bool": b}
}
