package httpapi

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/searcher"
	"github.com/aislehq/aisle/internal/engine/store"
)

var searchParams = with(resolveParams, "typed_keys", "rest_total_hits_as_int", "size", "from", "sort", "_source", "_source_includes",
	"_source_excludes", "track_total_hits", "track_scores", "version", "seq_no_primary_term", "search_type", "request_cache",
	"preference", "routing", "batched_reduce_size", "max_concurrent_shard_requests", "pre_filter_shard_size",
	"allow_partial_search_results", "ccs_minimize_roundtrips", "q", "scroll", "ignore_throttled", "timeout")

var countParams = with(resolveParams, "q", "routing", "preference", "min_score", "terminate_after", "ignore_throttled", "analyzer", "df", "default_operator", "lenient", "analyze_wildcard")

var mgetParams = []string{"_source", "_source_includes", "_source_excludes", "realtime", "refresh", "routing", "preference", "stored_fields", "force_synthetic_source"}

var dbqParams = with(resolveParams, "refresh", "conflicts", "wait_for_completion", "max_docs", "requests_per_second", "slices", "scroll_size", "routing", "q", "preference", "wait_for_active_shards", "scroll", "search_timeout", "request_cache", "timeout")

func (a *API) search(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if err := checkSearchParams(q); err != nil {
			return 0, nil, err
		}
		sr, err := parseSearchBody(q.body)
		if err != nil {
			return 0, nil, err
		}
		return a.runSearch(q, expr, sr)
	}
}

// checkSearchParams refuses the parameters a search cannot run with, before its body is
// read.
func checkSearchParams(q *req) error {
	if q.param("scroll") != "" {
		if err := searcher.ScrollConflict(q.body); err != nil {
			return err
		}
		return eserr.IllegalArgument("scroll is not supported by this engine; use search_after")
	}
	if st := q.param("search_type"); st != "" && st != "query_then_fetch" && st != "dfs_query_then_fetch" {
		return eserr.IllegalArgument("No search type for [%s]", st)
	}
	return nil
}

// parseSearchBody reads a search's body into its request.
func parseSearchBody(raw []byte) (*searcher.Request, error) {
	body, err := searcher.DecodeBody(raw)
	if err != nil {
		return nil, err
	}
	return searcher.ParseBody(body)
}

// runSearch runs sr, the search of q's body, over the indices expr names.
func (a *API) runSearch(q *req, expr string, sr *searcher.Request) (int, any, error) {
	if err := sr.ApplyParams(q.param); err != nil {
		return 0, nil, err
	}
	if sr.PIT != nil {
		return a.runPITSearch(q, expr, sr)
	}
	indices, err := a.pinned(q, expr, true)
	if err != nil {
		return 0, nil, err
	}
	if err := a.applyAliasFilters(expr, indices, sr); err != nil {
		return 0, nil, err
	}
	o := searcher.Options{TypedKeys: q.param("typed_keys") == "true", RestTotalHitsAsInt: q.param("rest_total_hits_as_int") == "true"}
	resp, err := searcher.Run(q.r.Context(), indices, sr, o)
	if err != nil {
		return 0, nil, err
	}
	return 200, resp, nil
}

// applyAliasFilters adds the filters of filtered aliases the search went through.
func (a *API) applyAliasFilters(expr string, indices []*store.Index, sr *searcher.Request) error {
	return applyFilters(a.Store.AliasFilters(expr), indices, sr)
}

// applyFilters adds filtered aliases' filters, by index name, to the search.
func applyFilters(filters map[string][]json.RawMessage, indices []*store.Index, sr *searcher.Request) error {
	if len(filters) == 0 {
		return nil
	}
	if len(indices) != 1 {
		return eserr.IllegalArgument("searching filtered aliases across several indices is not supported by this engine")
	}
	var clauses []any
	for _, f := range filters[indices[0].Name] {
		var v any
		dec := json.NewDecoder(strings.NewReader(string(f)))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return err
		}
		clauses = append(clauses, v)
	}
	if len(clauses) == 0 {
		return nil
	}
	searcher.PreFilterKnn(sr.Query, map[string]any{"bool": map[string]any{"should": clauses}})
	base := sr.Query
	if base == nil {
		base = map[string]any{"match_all": map[string]any{}}
	}
	sr.Query = map[string]any{"bool": map[string]any{"must": []any{base}, "filter": []any{map[string]any{"bool": map[string]any{"should": clauses}}}}}
	return nil
}

func (a *API) count(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if err := unsupportedParams(q, "q", "min_score", "terminate_after"); err != nil {
			return 0, nil, err
		}
		body, err := searcher.DecodeBody(q.body)
		if err != nil {
			return 0, nil, err
		}
		for k, v := range body {
			if k != "query" {
				return 0, nil, eserr.Parsing("request does not support [%s]", k).With("value", fmt.Sprint(v))
			}
		}
		indices, err := a.pinned(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		sr := &searcher.Request{Query: body["query"]}
		if err := a.applyAliasFilters(expr, indices, sr); err != nil {
			return 0, nil, err
		}
		n, err := searcher.Count(q.r.Context(), indices, sr.Query)
		if err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"count": n, "_shards": map[string]any{"total": len(indices), "successful": len(indices), "skipped": 0, "failed": 0}}, nil
	}
}

type mgetDoc struct {
	Index  string          `json:"_index"`
	ID     json.RawMessage `json:"_id"`
	Source json.RawMessage `json:"_source"`
	Stored json.RawMessage `json:"stored_fields"`
	Route  string          `json:"routing"`
}

func (a *API) mget(defIndex string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		var body struct {
			Docs []mgetDoc         `json:"docs"`
			IDs  []json.RawMessage `json:"ids"`
		}
		if len(q.body) == 0 {
			return 0, nil, eserr.ActionValidation("no documents to get")
		}
		if err := json.Unmarshal(q.body, &body); err != nil {
			return 0, nil, eserr.XContentParse("[1:1] failed to parse mget body: %s", err.Error())
		}
		for _, id := range body.IDs {
			body.Docs = append(body.Docs, mgetDoc{ID: id})
		}
		if len(body.Docs) == 0 {
			return 0, nil, eserr.ActionValidation("no documents to get")
		}
		if q.param("refresh") == "true" {
			if ix := a.Store.Index(defIndex); ix != nil {
				_ = ix.Refresh()
			}
		}
		var problems []string
		for i, d := range body.Docs {
			if d.Index == "" && defIndex == "" {
				problems = append(problems, fmt.Sprintf("index is missing for doc %d", i))
			}
			if len(d.ID) == 0 || string(d.ID) == "null" {
				problems = append(problems, fmt.Sprintf("id is missing for doc %d", i))
			}
		}
		if len(problems) > 0 {
			reason := "Validation Failed: "
			for i, p := range problems {
				reason += strconv.Itoa(i+1) + ": " + p + ";"
			}
			return 0, nil, eserr.New(400, "action_request_validation_exception", "%s", reason)
		}
		paramFilter := searcher.SourceFromParams(q.param("_source"), q.param("_source_includes"), q.param("_source_excludes"))
		docs := make([]any, len(body.Docs))
		for i, d := range body.Docs {
			docs[i] = a.mgetOne(q, d, defIndex, paramFilter)
		}
		return 200, map[string]any{"docs": docs}, nil
	}
}

func (a *API) mgetOne(q *req, d mgetDoc, defIndex string, paramFilter *searcher.SourceFilter) any {
	index := d.Index
	if index == "" {
		index = defIndex
	}
	var id string
	if err := json.Unmarshal(d.ID, &id); err != nil {
		id = string(d.ID)
	}
	ix, err := a.readIndex(index)
	if err != nil {
		return map[string]any{"_index": index, "_id": id, "error": eserr.As(err).BodyWithRootsJSON()}
	}
	filter := paramFilter
	if len(d.Source) > 0 {
		var v any
		_ = json.Unmarshal(d.Source, &v)
		if f, err := searcher.ParseSourceFilter(v); err == nil {
			filter = f
		}
	}
	doc, err := ix.Get(id)
	if err != nil {
		return map[string]any{"_index": index, "_id": id, "error": eserr.As(err).BodyWithRootsJSON()}
	}
	if doc != nil && q.param("realtime") == "false" && !inSearcher(ix, id) {
		doc = nil
	}
	_, out := getResult(ix, id, doc, filter, q.param("stored_fields"))
	return out
}
