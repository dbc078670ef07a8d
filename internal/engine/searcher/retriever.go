package searcher

import (
	"maps"
	"slices"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// retrieverConflicts are the search keys a retriever replaces, which ES refuses beside
// it.
var retrieverConflicts = []string{"query", "knn", "sort", "search_after", "collapse", "min_score",
	"terminate_after", "rescore", "post_filter"}

// withRetriever rewrites a search body with a `retriever` into the search it stands
// for: a standard retriever's query (and its filters, as a bool's), sort,
// search_after and collapse, or a knn retriever's kNN search (the knn option). Compound retrievers (rrf, text_similarity_reranker,
// rule) are outside the engine.
func withRetriever(body map[string]any) (map[string]any, error) {
	raw, ok := body["retriever"]
	if !ok {
		return body, nil
	}
	for _, k := range retrieverConflicts {
		if _, set := body[k]; set {
			return nil, eserr.IllegalArgument("cannot specify [retriever] and [%s]", k)
		}
	}
	m, ok := raw.(map[string]any)
	if !ok || len(m) != 1 {
		return nil, eserr.Parsing("[retriever] must be an object with one retriever")
	}
	out := make(map[string]any, len(body)+3)
	for k, v := range body {
		if k != "retriever" {
			out[k] = v
		}
	}
	for name, v := range m {
		spec, ok := v.(map[string]any)
		if !ok {
			return nil, eserr.Parsing("[%s] retriever must be an object", name)
		}
		switch name {
		case "standard":
			return out, standardRetriever(spec, out)
		case "knn":
			return out, knnRetriever(spec, out)
		}
		return nil, eserr.Parsing("unknown retriever [%s]", name)
	}
	return out, nil
}

func standardRetriever(spec, out map[string]any) error {
	query, filter := spec["query"], spec["filter"]
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		switch k {
		case "query", "filter":
		case "sort", "search_after", "collapse":
			out[k] = spec[k]
		default:
			return eserr.Parsing("[standard] retriever does not support [%s]", k)
		}
	}
	if filter != nil {
		must := query
		if must == nil {
			must = map[string]any{"match_all": map[string]any{}}
		}
		query = map[string]any{"bool": map[string]any{"must": must, "filter": filter}}
	}
	if query != nil {
		out["query"] = query
	}
	return nil
}

func knnRetriever(spec, out map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(spec)) {
		if !knnKeys[k] || k == "boost" {
			return eserr.Parsing("[knn] retriever does not support [%s]", k)
		}
	}
	out["knn"] = spec
	return nil
}
