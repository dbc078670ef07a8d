package searchquery

// Builders of the Elasticsearch clauses the ranking is made of.

// The clauses a unit's clause is made of are typed (their fields in the order
// encoding/json writes a map's keys), so that explain's name of a unit (its _name, read
// back from a hit's matched_queries) is set where the clause is built (bestOf), never
// added to a built one.

// scoreQuery is a constant_score query: its filter's matches score boost, a level of
// the score.
type scoreQuery struct {
	ConstantScore scoreBody `json:"constant_score"`
}

type scoreBody struct {
	Name   string `json:"_name,omitempty"`
	Boost  int64  `json:"boost"`
	Filter any    `json:"filter"`
}

func constant(filter any, boost int64) scoreQuery {
	return scoreQuery{ConstantScore: scoreBody{Boost: boost, Filter: filter}}
}

// withName is q named name.
func (q scoreQuery) withName(name string) any {
	q.ConstantScore.Name = name
	return q
}

// wordsQuery matches every word of a unit of several words, each by its best variant.
type wordsQuery struct {
	Bool wordsBody `json:"bool"`
}

type wordsBody struct {
	Name string `json:"_name,omitempty"`
	Must []any  `json:"must"`
}

func (q wordsQuery) withName(name string) any {
	q.Bool.Name = name
	return q
}

// variant is a query a unit's clause may be made of alone (bestOf names it then).
type variant interface {
	withName(name string) any
}

// disMaxQuery scores the best of its queries (tie_breaker 0).
type disMaxQuery struct {
	DisMax disMaxBody `json:"dis_max"`
}

type disMaxBody struct {
	Name    string `json:"_name,omitempty"`
	Queries []any  `json:"queries"`
}

// disMax scores the best of its queries: the best variant of a word.
func disMax(queries []any) any {
	if len(queries) == 1 {
		return queries[0]
	}
	return disMaxQuery{DisMax: disMaxBody{Queries: queries}}
}

// bestOf is the best of variants (disMax), named name ("": unnamed): explain reads
// which units a hit matched from the names.
func bestOf(variants []variant, name string) any {
	if len(variants) == 1 {
		return variants[0].withName(name)
	}
	queries := make([]any, len(variants))
	for i, v := range variants {
		queries[i] = v.withName("")
	}
	return disMaxQuery{DisMax: disMaxBody{Name: name, Queries: queries}}
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
