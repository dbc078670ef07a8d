package httpapi

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/pit"
	"github.com/aislehq/aisle/internal/engine/searcher"
)

var openPITParams = with(resolveParams, "keep_alive", "preference", "routing")

// pitRegistry is the API's registry of points in time, made on first use.
func (a *API) pitRegistry() *pit.Registry {
	a.pitOnce.Do(func() {
		if a.PITs == nil {
			a.PITs = pit.New(pit.DefaultMaxOpen)
		}
	})
	return a.PITs
}

// openPIT freezes the indices expr names (POST /{index}/_pit?keep_alive=1m).
func (a *API) openPIT(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		keepAlive, err := pit.ParseKeepAlive(q.param("keep_alive"))
		if err != nil {
			return 0, nil, err
		}
		if body := bytes.TrimSpace(q.body); len(body) > 0 && !bytes.Equal(body, []byte("{}")) {
			return 0, nil, eserr.IllegalArgument("[index_filter] of a point in time is not supported by this engine")
		}
		indices, err := a.pinned(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		p, err := a.pitRegistry().Open(indices, a.Store.AliasFilters(expr), keepAlive)
		if err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"id": p.ID, "_shards": shardsOf(len(indices))}, nil
	}
}

// closePIT releases the points in time of the body's id (DELETE /_pit {"id": ...}); none
// open is a 404 with the same body, as in Elasticsearch.
func (a *API) closePIT(q *req) (int, any, error) {
	var body struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(q.body, &body); err != nil {
		return 0, nil, eserr.XContentParse("[1:1] failed to parse the close point in time body: %s", err.Error())
	}
	var ids []string
	var one string
	if json.Unmarshal(body.ID, &one) == nil && one != "" {
		ids = []string{one}
	} else if json.Unmarshal(body.ID, &ids) != nil || len(ids) == 0 {
		return 0, nil, eserr.ActionValidation("[id] of the point in time to close is missing")
	}
	freed := a.pitRegistry().Close(ids)
	status := 200
	if freed == 0 {
		status = 404
	}
	return status, map[string]any{"succeeded": true, "num_freed": freed}, nil
}

// runPITSearch runs sr over the point in time it names, which it keeps alive for the
// request's keep_alive; the response names the point in time, as Elasticsearch's does.
func (a *API) runPITSearch(q *req, expr string, sr *searcher.Request) (int, any, error) {
	if expr != "" {
		return 0, nil, eserr.ActionValidation("[indices] cannot be used with point in time. Do not specify any index with point in time.")
	}
	keepAlive, err := pitKeepAlive(sr.PIT)
	if err != nil {
		return 0, nil, err
	}
	p, done, err := a.pitRegistry().Acquire(sr.PIT.ID, keepAlive)
	if err != nil {
		return 0, nil, err
	}
	defer done()
	if err := applyFilters(p.Filters, p.Indices, sr); err != nil {
		return 0, nil, err
	}
	o := searcher.Options{TypedKeys: q.param("typed_keys") == "true", RestTotalHitsAsInt: q.param("rest_total_hits_as_int") == "true"}
	resp, err := searcher.Run(q.r.Context(), p.Indices, sr, o)
	if err != nil {
		return 0, nil, err
	}
	resp["pit_id"] = p.ID
	return 200, resp, nil
}

// pitKeepAlive is the keep_alive of a search's point in time; 0 when it sets none.
func pitKeepAlive(ref *searcher.PITRef) (time.Duration, error) {
	if ref.KeepAlive == "" {
		return 0, nil
	}
	return pit.ParseKeepAlive(ref.KeepAlive)
}

func shardsOf(n int) map[string]any {
	return map[string]any{"total": n, "successful": n, "skipped": 0, "failed": 0}
}
