package esspec

import (
	"strings"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// searchKeys are the top-level keys of a search body: the fields of the typed client's
// search.Request (go-elasticsearch v8.19, the client the product uses), which follow ES's
// SearchSourceBuilder, plus "aggs", which ES reads as "aggregations".
var searchKeys = []string{
	"_source", "aggregations", "aggs", "collapse", "docvalue_fields", "explain", "ext",
	"fields", "from", "highlight", "indices_boost", "knn", "min_score", "pit",
	"post_filter", "profile", "query", "rank", "rescore", "retriever", "runtime_mappings",
	"script_fields", "search_after", "seq_no_primary_term", "size", "slice", "sort", "stats",
	"stored_fields", "suggest", "terminate_after", "timeout", "track_scores",
	"track_total_hits", "version",
}

// bodyKeys lists, per API, the top-level body keys ES accepts; an API not listed is held
// only to "one JSON object".
var bodyKeys = map[string][]string{
	"search": searchKeys,
	// ES's count reads the body with RestActions.parseTopLevelQuery: "query" alone.
	"count": {"query"},
	// ES parses a delete-by-query body as a search body without "size" (it answers
	// "invalid parameter [size], use [max_docs] instead"), plus "conflicts" and "max_docs".
	"delete_by_query": with(without(searchKeys, "size"), "conflicts", "max_docs"),
	// CreateIndexRequest.source refuses any other key ("unknown key [x] for create index").
	"indices.create":         {"aliases", "mappings", "settings"},
	"indices.update_aliases": {"actions"},
	"mget":                   {"docs", "ids"},
}

// bulkActions are the actions of a _bulk action line; bulkMeta the keys ES's
// BulkRequestParser takes in its object ("contains an unknown parameter" otherwise).
var (
	bulkActions = map[string]bool{"index": true, "create": true, "update": true, "delete": true}
	bulkMeta    = []string{
		"_index", "_id", "routing", "op_type", "version", "version_type", "retry_on_conflict",
		"pipeline", "_source", "if_seq_no", "if_primary_term", "require_alias",
		"require_data_stream", "list_executed_pipelines", "dynamic_templates",
	}
)

func unknownKey(api *yamlrest.API, keys []string) error {
	allowed, ok := bodyKeys[api.Name]
	if !ok {
		return nil
	}
	if k := firstOutside(keys, allowed); k != "" {
		return violation(api, "body key [%s] is not one the API takes (%s)", k, strings.Join(allowed, ", "))
	}
	return nil
}

func firstOutside(keys, allowed []string) string {
	for _, k := range keys {
		if !contains(allowed, k) {
			return k
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func with(base []string, more ...string) []string {
	return append(append([]string{}, base...), more...)
}

func without(base []string, drop string) []string {
	var out []string
	for _, e := range base {
		if e != drop {
			out = append(out, e)
		}
	}
	return out
}
