package httpapi

import (
	"encoding/json"

	"github.com/aislehq/aisle/internal/engine/docupdate"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/searcher"
	"github.com/aislehq/aisle/internal/engine/store"
)

var updateParams = []string{"if_seq_no", "if_primary_term", "refresh", "routing", "wait_for_active_shards", "require_alias",
	"_source", "_source_includes", "_source_excludes", "lang", "retry_on_conflict", "timeout", "include_source_on_error"}

// updatedGet is the `get` of an update response that asked for the document's source.
type updatedGet struct {
	SeqNo       int64           `json:"_seq_no"`
	PrimaryTerm int64           `json:"_primary_term"`
	Found       bool            `json:"found"`
	Source      json.RawMessage `json:"_source,omitempty"`
}

// update answers POST /{index}/_update/{id}. The engine applies an update under the
// index's write lock, so concurrent updates of a document never conflict with each
// other: retry_on_conflict is accepted and has nothing to retry.
func (a *API) update(index, id string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		mode, err := refreshMode(q)
		if err != nil {
			return 0, nil, err
		}
		if _, err := int64Param(q, "retry_on_conflict"); err != nil {
			return 0, nil, err
		}
		seq, term, err := casParams(q, false)
		if err != nil {
			return 0, nil, err
		}
		u, err := docupdate.Parse(q.body, id, seq != nil)
		if err != nil {
			return 0, nil, err
		}
		filter, err := updateSourceFilter(q, u.Source)
		if err != nil {
			return 0, nil, err
		}
		ix, err := a.Store.WriteTarget(index, q.param("require_alias") == "true")
		if err != nil {
			return 0, nil, err
		}
		ops := []store.Op{{Kind: store.OpUpdate, ID: id, Update: u, IfSeqNo: seq, IfPrimaryTerm: term}}
		status, body, err := writeFirst(ix, ops, mode)
		if err != nil {
			return 0, nil, err
		}
		body.Get = updatedSource(body, ops[0].Source, filter)
		return status, body, nil
	}
}

// sourceRequest is the _source an update response returns: nil for none.
type sourceRequest struct{ filter *searcher.SourceFilter }

// updateSourceFilter reads the response's _source from the parameters, or else the
// body; without either the response has no `get`, as in ES.
func updateSourceFilter(q *req, body []byte) (*sourceRequest, error) {
	_, src := q.params["_source"]
	_, inc := q.params["_source_includes"]
	_, exc := q.params["_source_excludes"]
	if src || inc || exc {
		f := searcher.SourceFromParams(q.param("_source"), q.param("_source_includes"), q.param("_source_excludes"))
		return wantSource(f), nil
	}
	return bodySourceFilter(body)
}

func bodySourceFilter(body []byte) (*sourceRequest, error) {
	if body == nil {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, eserr.Parsing("[_source] has an invalid value")
	}
	f, err := searcher.ParseSourceFilter(v)
	if err != nil {
		return nil, err
	}
	return wantSource(f), nil
}

func wantSource(f *searcher.SourceFilter) *sourceRequest {
	if f != nil && f.Disabled {
		return nil
	}
	return &sourceRequest{filter: f}
}

// updatedSource is the response's `get` for the document's source after the update.
func updatedSource(w *writeResult, src []byte, want *sourceRequest) *updatedGet {
	if want == nil || src == nil {
		return nil
	}
	return &updatedGet{SeqNo: w.SeqNo, PrimaryTerm: w.PrimaryTerm, Found: true, Source: want.filter.Apply(src)}
}
