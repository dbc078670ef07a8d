package httpapi

import (
	"fmt"
	"strconv"
	"time"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/searcher"
	"github.com/aislehq/aisle/internal/engine/store"
)

// dbqRequest is a validated _delete_by_query request.
type dbqRequest struct {
	query     any
	maxDocs   int
	proceed   bool // conflicts=proceed: count version conflicts and go on
	refresh   bool
	startedAt time.Time
}

// dbqResult accumulates the BulkByScroll response.
type dbqResult struct {
	total, deleted, conflicts int
	failures                  []any
}

func (a *API) deleteByQuery(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		r, err := parseDBQ(q)
		if err != nil {
			return 0, nil, err
		}
		indices, err := a.pinned(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		res, err := a.runDeleteByQuery(q, indices, r)
		if err != nil {
			return 0, nil, err
		}
		status := 200
		if len(res.failures) > 0 {
			// ES answers with the highest failure status (409 for version conflicts).
			status = 409
		}
		return status, map[string]any{"took": time.Since(r.startedAt).Milliseconds(), "timed_out": false, "total": res.total,
			"deleted": res.deleted, "batches": 1 + res.total/1000, "version_conflicts": res.conflicts, "noops": 0,
			"retries": map[string]any{"bulk": 0, "search": 0}, "throttled_millis": 0, "requests_per_second": -1.0,
			"throttled_until_millis": 0, "failures": nonNil(res.failures)}, nil
	}
}

func nonNil(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

func parseDBQ(q *req) (*dbqRequest, error) {
	r := &dbqRequest{startedAt: time.Now(), maxDocs: int(^uint(0) >> 1)}
	if err := unsupportedParams(q, "q"); err != nil {
		return nil, err
	}
	if q.param("wait_for_completion") == "false" {
		return nil, eserr.IllegalArgument("wait_for_completion=false (tasks) is not supported by this engine")
	}
	if rps := q.param("requests_per_second"); rps != "" {
		f, err := strconv.ParseFloat(rps, 64)
		if err != nil || (f <= 0 && f != -1) {
			return nil, eserr.ActionValidation("[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.")
		}
	}
	if sl := q.param("slices"); sl != "" && sl != "auto" {
		n, err := strconv.Atoi(sl)
		if err != nil || n < 1 {
			return nil, eserr.IllegalArgument("[slices] must be a positive integer or the string \"auto\"")
		}
	}
	conflicts := q.param("conflicts")
	if conflicts != "" && conflicts != "abort" && conflicts != "proceed" {
		return nil, eserr.IllegalArgument("conflicts may only be \"proceed\" or \"abort\" but was [%s]", conflicts)
	}
	r.proceed = conflicts == "proceed"
	body, err := searcher.DecodeBody(q.body)
	if err != nil {
		return nil, err
	}
	for k, v := range body {
		switch k {
		case "query":
			r.query = v
		case "max_docs":
			if r.maxDocs, err = maxDocs(fmt.Sprint(v)); err != nil {
				return nil, err
			}
		default:
			return nil, eserr.Parsing("[delete_by_query] unknown field [%s]", k)
		}
	}
	if md := q.param("max_docs"); md != "" {
		if r.maxDocs, err = maxDocs(md); err != nil {
			return nil, err
		}
	}
	if _, ok := body["query"]; !ok {
		return nil, eserr.ActionValidation("query is missing")
	}
	mode, err := refreshMode(q)
	if err != nil {
		return nil, err
	}
	r.refresh = mode != "false"
	return r, nil
}

// maxDocs parses max_docs as ES's AbstractBulkByScrollRequest does: -1 means all matches,
// other negatives are refused by setMaxDocs and 0 by request validation.
func maxDocs(s string) (int, error) {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return 0, eserr.IllegalArgument("Failed to parse int parameter [max_docs] with value [%s]", s)
	case n == -1:
		return int(^uint(0) >> 1), nil
	case n < 0:
		return 0, eserr.IllegalArgument("[max_docs] parameter cannot be negative, found [%d]", n)
	case n == 0:
		return 0, eserr.ActionValidation("maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [0]")
	}
	return n, nil
}

// runDeleteByQuery searches each index's refreshed view and deletes what it found with
// if_seq_no of the version it saw; with conflicts=abort it stops after the first batch
// that had a conflict, as ES does.
func (a *API) runDeleteByQuery(q *req, indices []*store.Index, r *dbqRequest) (*dbqResult, error) {
	res := &dbqResult{}
	for _, ix := range indices {
		if res.total >= r.maxDocs || (len(res.failures) > 0 && !r.proceed) {
			break
		}
		bq, _, err := searcher.BuildQuery([]*store.Index{ix}, r.query)
		if err != nil {
			return nil, err
		}
		ids, err := searcher.MatchingIDs(q.r.Context(), ix, bq, r.maxDocs-res.total)
		if err != nil {
			return nil, err
		}
		res.total += len(ids)
		if err := deleteSeen(ix, ids, r, res); err != nil {
			return nil, err
		}
		if r.refresh {
			if err := ix.Refresh(); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

func deleteSeen(ix *store.Index, ids []string, r *dbqRequest, res *dbqResult) error {
	if len(ids) == 0 {
		return nil
	}
	ops := make([]store.Op, len(ids))
	for i, id := range ids {
		seq, term := ix.SearchedSeqNo(id)
		ops[i] = store.Op{Kind: store.OpDelete, ID: id, IfSeqNo: &seq, IfPrimaryTerm: &term}
	}
	results, err := ix.Write(ops)
	if err != nil {
		return err
	}
	for _, w := range results {
		switch {
		case w.Result == "deleted":
			res.deleted++
		case w.Status == 409:
			res.conflicts++
			if !r.proceed {
				res.failures = append(res.failures, map[string]any{"index": ix.Name, "id": w.ID, "cause": w.Err.BodyJSON(), "status": 409})
			}
		}
	}
	return nil
}
