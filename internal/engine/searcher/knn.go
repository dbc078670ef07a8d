package searcher

import (
	"encoding/json"
	"strconv"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// knnKeys are the keys of a top-level knn search (KnnSearchBuilder's); inner_hits and
// query_vector_builder are outside the engine.
var knnKeys = map[string]bool{"field": true, "query_vector": true, "k": true, "num_candidates": true,
	"filter": true, "similarity": true, "boost": true, "_name": true, "rescore_vector": true}

// knnClauses reads the top-level knn option (one search or an array of them) into knn
// queries with their k set: a knn search's k defaults to the search's size.
func knnClauses(v any, size int) ([]any, error) {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	out := make([]any, 0, len(list))
	for _, el := range list {
		m, ok := el.(map[string]any)
		if !ok {
			return nil, eserr.Parsing("[knn] failed to parse: expected an object or an array of objects")
		}
		for k := range m {
			if !knnKeys[k] {
				return nil, eserr.Parsing("[knn] unknown field [%s]", k)
			}
		}
		c := make(map[string]any, len(m)+1)
		for k, val := range m {
			c[k] = val
		}
		if _, set := c["k"]; !set {
			c["k"] = json.Number(strconv.Itoa(size))
		}
		if err := checkKnnSizes(c); err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"knn": c})
	}
	return out, nil
}

func checkKnnSizes(c map[string]any) error {
	k, err := intValue("k", c["k"])
	if err != nil {
		return err
	}
	var nc *int
	if v, ok := c["num_candidates"]; ok {
		n, err := intValue("num_candidates", v)
		if err != nil {
			return err
		}
		nc = &n
	}
	_, _, err = dsl.KnnSizes(k, nc)
	return err
}

// applyKnn makes the search's query the disjunction of its query and its knn searches,
// whose scores add up, as ES combines them.
func (r *Request) applyKnn(searchType string) error {
	if r.Knn == nil {
		return nil
	}
	if searchType != "" {
		return eserr.IllegalArgument("cannot set [search_type] when using [knn] search, since the search type is determined automatically")
	}
	clauses, err := knnClauses(r.Knn, r.Size)
	if err != nil {
		return err
	}
	if r.Query != nil {
		clauses = append([]any{r.Query}, clauses...)
	}
	r.Knn = nil
	if len(clauses) == 1 {
		r.Query = clauses[0]
		return nil
	}
	r.Query = map[string]any{"bool": map[string]any{"should": clauses}}
	return nil
}

// PreFilterKnn adds filter to the filter of every knn query within q (a decoded query):
// a filtered alias's filter applies to a kNN search before its k nearest are chosen, as
// ES applies it, not only to the k it found.
func PreFilterKnn(q any, filter any) {
	switch x := q.(type) {
	case []any:
		for _, el := range x {
			PreFilterKnn(el, filter)
		}
	case map[string]any:
		for k, v := range x {
			// A field named knn in a term query holds no query_vector.
			if inner, ok := v.(map[string]any); ok && k == "knn" && inner["query_vector"] != nil {
				inner["filter"] = append(knnFilterList(inner["filter"]), filter)
				continue
			}
			PreFilterKnn(v, filter)
		}
	}
}

func knnFilterList(v any) []any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		return append([]any(nil), x...)
	}
	return []any{v}
}
