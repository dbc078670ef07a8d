package httpapi

import (
	"bytes"
	"encoding/json"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/searcher"
)

// msearchParams are the parameters of Elasticsearch's msearch API specification.
var msearchParams = []string{"search_type", "max_concurrent_searches", "typed_keys", "pre_filter_shard_size",
	"max_concurrent_shard_requests", "rest_total_hits_as_int", "ccs_minimize_roundtrips"}

// msearchHeaderKeys are the keys ES reads in a search's header line: index (or indices)
// names its indices, the others are its search parameters.
var msearchHeaderKeys = []string{"index", "indices", "search_type", "preference", "routing", "request_cache",
	"allow_partial_search_results", "ccs_minimize_roundtrips", "expand_wildcards", "ignore_unavailable",
	"allow_no_indices", "ignore_throttled"}

// msearchItem is one search of a multi-search: its indices, parameters and body.
type msearchItem struct {
	expr   string
	params url.Values
	body   []byte
}

// msearch runs the searches of an NDJSON body (header and body lines) concurrently, up
// to max_concurrent_searches at once, and answers their responses in order; a search
// that fails answers its error and status in its place, the others are unaffected. A
// body that cannot be read fails the whole request, as in ES, which reads them first.
func (a *API) msearch(defIndex string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		start := time.Now()
		limit, err := maxConcurrentSearches(q)
		if err != nil {
			return 0, nil, err
		}
		items, err := parseMsearch(q.body, defIndex, q.params)
		if err != nil {
			return 0, nil, err
		}
		parsed, err := parseMsearchBodies(items, q.param("rest_total_hits_as_int") == "true")
		if err != nil {
			return 0, nil, err
		}
		responses := make([]any, len(items))
		subs := make([]*req, len(items))
		var g errgroup.Group
		g.SetLimit(limit)
		for i, it := range items {
			subs[i] = &req{w: q.w, r: q.r, params: it.params, body: it.body}
			g.Go(func() error {
				responses[i] = a.msearchOne(subs[i], it.expr, parsed[i])
				return nil
			})
		}
		_ = g.Wait() // the searches report their errors in their responses
		for _, s := range subs {
			q.cleanup = append(q.cleanup, s.cleanup...)
		}
		return 200, map[string]any{"took": time.Since(start).Milliseconds(), "responses": responses}, nil
	}
}

func (a *API) msearchOne(sub *req, expr string, sr *searcher.Request) any {
	_, body, err := a.runParsed(sub, expr, sr)
	if err != nil {
		e := eserr.As(err)
		return map[string]any{"error": e.BodyWithRootsJSON(), "status": e.Status}
	}
	resp := body.(map[string]any)
	resp["status"] = 200
	return resp
}

// runParsed runs one search of a multi-search, its body already read.
func (a *API) runParsed(sub *req, expr string, sr *searcher.Request) (int, any, error) {
	if err := checkSearchParams(sub); err != nil {
		return 0, nil, err
	}
	return a.runSearch(sub, expr, sr)
}

func maxConcurrentSearches(q *req) (int, error) {
	s := q.param("max_concurrent_searches")
	if s == "" {
		return runtime.GOMAXPROCS(0), nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, eserr.IllegalArgument("Failed to parse int parameter [max_concurrent_searches] with value [%s]", s)
	}
	if n < 1 {
		return 0, eserr.IllegalArgument("maxConcurrentSearches must be positive")
	}
	return n, nil
}

// parseMsearch reads the header and body lines; a header without a body line at the end
// is ignored, as ES ignores it.
func parseMsearch(body []byte, defIndex string, urlParams url.Values) ([]msearchItem, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, eserr.New(400, "parse_exception", "request body or source parameter is required")
	}
	if body[len(body)-1] != '\n' {
		return nil, eserr.IllegalArgument("The msearch request must be terminated by a newline [\\n]")
	}
	lines := bytes.Split(body[:len(body)-1], []byte("\n"))
	var items []msearchItem
	for i := 0; i+1 < len(lines); i += 2 {
		it, err := msearchHeader(lines[i], defIndex, urlParams)
		if err != nil {
			return nil, err
		}
		it.body = lines[i+1]
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, eserr.ActionValidation("no requests added")
	}
	return items, nil
}

// msearchHeader reads a header line (empty: {}) into the search's indices and
// parameters; the URL's search_type applies unless the header sets its own.
func msearchHeader(line []byte, defIndex string, urlParams url.Values) (msearchItem, error) {
	it := msearchItem{expr: defIndex, params: url.Values{}}
	for _, k := range []string{"rest_total_hits_as_int", "typed_keys", "search_type"} {
		if v, ok := urlParams[k]; ok {
			it.params[k] = v
		}
	}
	var header map[string]any
	if len(bytes.TrimSpace(line)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&header); err != nil {
			return it, eserr.XContentParse("[1:1] failed to parse the msearch header: %s", err.Error())
		}
	}
	for k, v := range header {
		if !isOneOf(k, msearchHeaderKeys) {
			return it, eserr.IllegalArgument("key [%s] is not supported in the metadata section", k)
		}
		val := headerValue(v)
		if k == "index" || k == "indices" {
			it.expr = val
			continue
		}
		it.params.Set(k, val)
	}
	return it, nil
}

// headerValue is a header value as the URL parameter it stands for: lists joined by
// commas.
func headerValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = headerValue(e)
		}
		return strings.Join(parts, ",")
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// parseMsearchBodies reads every body as ES does before searching: one it cannot read,
// or that asks for inexact totals with rest_total_hits_as_int, fails the request. The
// searches run the requests read here: a body is decoded once.
func parseMsearchBodies(items []msearchItem, totalsAsInt bool) ([]*searcher.Request, error) {
	parsed := make([]*searcher.Request, len(items))
	for i, it := range items {
		sr, err := parseSearchBody(it.body)
		if err != nil {
			return nil, err
		}
		if err := sr.CheckOptions(searcher.Options{RestTotalHitsAsInt: totalsAsInt}); err != nil {
			return nil, err
		}
		if sr.PIT != nil && it.expr != "" {
			return nil, eserr.ActionValidation("[indices] cannot be used with point in time. Do not specify any index with point in time.")
		}
		parsed[i] = sr
	}
	return parsed, nil
}
