package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"strconv"

	"github.com/blevesearch/bleve/v2"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/searcher"
	"github.com/aislehq/aisle/internal/engine/store"
)

var docWriteParams = []string{"if_seq_no", "if_primary_term", "op_type", "refresh", "routing", "wait_for_active_shards", "require_alias", "require_data_stream", "pipeline", "version", "version_type", "list_executed_pipelines", "include_source_on_error", "timeout"}

var getParams = []string{"_source", "_source_includes", "_source_excludes", "realtime", "refresh", "routing", "preference", "stored_fields", "version", "version_type"}

// refreshMode parses ?refresh= (""/true force a refresh, wait_for waits for one).
func refreshMode(q *req) (string, error) {
	v, ok := q.params["refresh"]
	if !ok {
		return "false", nil
	}
	switch v[0] {
	case "", "true":
		return "true", nil
	case "false", "wait_for":
		return v[0], nil
	}
	return "", eserr.IllegalArgument("Unknown value for refresh: [%s].", v[0])
}

func afterWrite(ix *store.Index, mode string, body *writeResult) error {
	if mode == "false" {
		return nil
	}
	if err := ix.Refresh(); err != nil {
		return err
	}
	if mode == "true" {
		body.ForcedRefresh = true
	}
	return nil
}

func int64Param(q *req, name string) (*int64, error) {
	v, ok := q.params[name]
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseInt(v[0], 10, 64)
	if err != nil {
		return nil, eserr.IllegalArgument("Failed to parse long parameter [%s] with value [%s]", name, v[0])
	}
	return &n, nil
}

// newID generates a 20-character id like ES's auto-generated ids.
func newID() string {
	b := make([]byte, 15)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func unsupportedParams(q *req, names ...string) error {
	for _, n := range names {
		if _, ok := q.params[n]; ok {
			return eserr.IllegalArgument("request parameter [%s] is not supported by this engine", n)
		}
	}
	return nil
}

// writeResult is the response to a document write, fields in ES's order. A struct, not
// a map: a bulk renders a thousand of them, and maps are sorted and reflected key by key.
type writeResult struct {
	Index         string      `json:"_index"`
	ID            string      `json:"_id"`
	Version       int64       `json:"_version"`
	Result        string      `json:"result"`
	ForcedRefresh bool        `json:"forced_refresh,omitempty"`
	Shards        writeShards `json:"_shards"`
	SeqNo         int64       `json:"_seq_no"`
	PrimaryTerm   int64       `json:"_primary_term"`
	// Get is the updated document, for an update that asked for its _source.
	Get *updatedGet `json:"get,omitempty"`
	// Status is set in _bulk items only.
	Status int `json:"status,omitempty"`
}

type writeShards struct {
	Total      int `json:"total"`
	Successful int `json:"successful"`
	Failed     int `json:"failed"`
}

func writeResponse(ix *store.Index, r store.Result) *writeResult {
	shards := writeShards{Total: 1 + ix.Settings().Int("index.number_of_replicas", 1), Successful: 1}
	if r.Result == "noop" {
		shards = writeShards{} // ES: a noop reaches no shard copy
	}
	return &writeResult{Index: ix.Name, ID: r.ID, Version: r.Version, Result: r.Result,
		Shards: shards, SeqNo: r.SeqNo, PrimaryTerm: r.Term}
}

// validateCAS applies ES's request validation for conditional writes.
func validateCAS(seq, term *int64, create bool) error {
	if seq != nil && *seq < 0 && *seq != -2 {
		return eserr.ActionValidation("ifSeqNo is set, but primary term is [0]")
	}
	if seq != nil && (term == nil || *term == 0) {
		return eserr.ActionValidation("ifSeqNo is set, but primary term is [0]")
	}
	if term != nil && seq == nil {
		return eserr.ActionValidation("ifSeqNo is unassigned, but primary term is [" + strconv.FormatInt(*term, 10) + "]")
	}
	if create && seq != nil {
		return eserr.ActionValidation("create operations do not support compare and set. use index instead")
	}
	return nil
}

func (a *API) indexDoc(index, id string, create bool) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if err := unsupportedParams(q, "pipeline", "require_data_stream"); err != nil {
			return 0, nil, err
		}
		mode, err := refreshMode(q)
		if err != nil {
			return 0, nil, err
		}
		switch q.param("op_type") {
		case "create":
			create = true
		case "", "index":
		default:
			return 0, nil, eserr.IllegalArgument("opType must be 'create' or 'index', found: [%s]", q.param("op_type"))
		}
		seq, term, err := casParams(q, create)
		if err != nil {
			return 0, nil, err
		}
		ext, gte, err := externalVersion(q, create, seq != nil)
		if err != nil {
			return 0, nil, err
		}
		if len(bytes.TrimSpace(q.body)) == 0 {
			return 0, nil, eserr.ActionValidation("source is missing")
		}
		if id == "" {
			id = newID()
			create = true
		}
		if len(id) > 512 {
			return 0, nil, eserr.ActionValidation("id [" + id + "] is too long, must be no longer than 512 bytes but was: " + strconv.Itoa(len(id)))
		}
		requireAlias := q.param("require_alias") == "true"
		ix, err := a.Store.WriteTarget(index, requireAlias)
		if err != nil {
			return 0, nil, err
		}
		kind := store.OpIndex
		if create {
			kind = store.OpCreate
		}
		// Sources are stored without insignificant whitespace when they are valid JSON;
		// the document builder reports invalid JSON with ES's error.
		return writeOne(ix, store.Op{Kind: kind, ID: id, Source: mapper.Compact(q.body), IfSeqNo: seq, IfPrimaryTerm: term,
			External: ext, ExternalGTE: gte}, mode)
	}
}

func (a *API) deleteDoc(index, id string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		mode, err := refreshMode(q)
		if err != nil {
			return 0, nil, err
		}
		seq, term, err := casParams(q, false)
		if err != nil {
			return 0, nil, err
		}
		ix, err := a.writeIndexNoCreate(index)
		if err != nil {
			return 0, nil, err
		}
		return writeOne(ix, store.Op{Kind: store.OpDelete, ID: id, IfSeqNo: seq, IfPrimaryTerm: term}, mode)
	}
}

// casParams reads if_seq_no and if_primary_term and applies ES's validation to them.
func casParams(q *req, create bool) (seq, term *int64, err error) {
	if seq, err = int64Param(q, "if_seq_no"); err != nil {
		return nil, nil, err
	}
	if term, err = int64Param(q, "if_primary_term"); err != nil {
		return nil, nil, err
	}
	return seq, term, validateCAS(seq, term, create)
}

// writeOne applies one document write and answers it as ES does, refreshing as mode
// asks.
func writeOne(ix *store.Index, op store.Op, mode string) (int, any, error) {
	status, body, err := writeFirst(ix, []store.Op{op}, mode)
	if err != nil {
		return 0, nil, err
	}
	return status, body, nil
}

// writeFirst applies ops (of one document) and answers the first as writeOne does; the
// ops keep what applying them set (an update's new source).
func writeFirst(ix *store.Index, ops []store.Op, mode string) (int, *writeResult, error) {
	res, err := ix.Write(ops)
	if err != nil {
		return 0, nil, err
	}
	if res[0].Err != nil {
		return 0, nil, res[0].Err
	}
	body := writeResponse(ix, res[0])
	if err := afterWrite(ix, mode, body); err != nil {
		return 0, nil, err
	}
	return res[0].Status, body, nil
}

// writeIndexNoCreate resolves a write target that must already exist (delete).
func (a *API) writeIndexNoCreate(name string) (*store.Index, error) {
	if ix := a.Store.Index(name); ix != nil {
		return ix, nil
	}
	for _, al := range a.Store.AliasNames() {
		if al == name {
			return a.Store.WriteTarget(name, true)
		}
	}
	return nil, eserr.IndexNotFound(name)
}

// readIndex resolves a single index for GET (an alias must point at exactly one index).
func (a *API) readIndex(name string) (*store.Index, error) {
	if ix := a.Store.Index(name); ix != nil {
		return ix, nil
	}
	indices, err := a.Store.Resolve(name, store.ResolveOpts{})
	if err != nil {
		return nil, err
	}
	if len(indices) != 1 {
		return nil, eserr.IllegalArgument("alias [%s] has more than one index associated with it [%d], can't execute a single index op", name, len(indices))
	}
	return indices[0], nil
}

func inSearcher(ix *store.Index, id string) bool {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery([]string{id}), 0, 0, false)
	res, err := ix.Bleve().SearchInContext(context.Background(), req)
	return err == nil && res.Total > 0
}

func (a *API) getDoc(index, id string, sourceOnly bool) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if err := unsupportedParams(q, "version", "version_type"); err != nil {
			return 0, nil, err
		}
		ix, err := a.readIndex(index)
		if err != nil {
			return 0, nil, err
		}
		if q.param("refresh") == "true" {
			if err := ix.Refresh(); err != nil {
				return 0, nil, err
			}
		}
		filter := searcher.SourceFromParams(q.param("_source"), q.param("_source_includes"), q.param("_source_excludes"))
		doc, err := ix.Get(id)
		if err != nil {
			return 0, nil, err
		}
		if doc != nil && q.param("realtime") == "false" && !inSearcher(ix, id) {
			doc = nil
		}
		if sourceOnly {
			if doc == nil {
				return 0, nil, eserr.New(404, "resource_not_found_exception", "Document not found [%s]/[%s]", ix.Name, id)
			}
			return 200, filter.Apply(doc.Source), nil
		}
		status, out := getResult(ix, id, doc, filter, q.param("stored_fields"))
		return status, out, nil
	}
}

func getResult(ix *store.Index, id string, doc *store.Doc, filter *searcher.SourceFilter, storedFields string) (int, map[string]any) {
	if doc == nil {
		return 404, map[string]any{"_index": ix.Name, "_id": id, "found": false}
	}
	out := map[string]any{"_index": ix.Name, "_id": id, "_version": doc.Version, "_seq_no": doc.SeqNo,
		"_primary_term": doc.Term, "found": true}
	if storedFields == "" {
		if src := filter.Apply(doc.Source); src != nil {
			out["_source"] = src
		}
	}
	return 200, out
}
