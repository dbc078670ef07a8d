package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/engine/docupdate"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

var bulkParams = []string{"refresh", "routing", "wait_for_active_shards", "require_alias", "require_data_stream", "pipeline", "_source", "_source_includes", "_source_excludes", "list_executed_pipelines", "include_source_on_error", "timeout"}

// bulkItem is one action of a _bulk body.
type bulkItem struct {
	action string
	// opCreate is set for create actions and for index actions with op_type=create or an
	// auto-generated id; the response keeps the action name the client sent.
	opCreate bool
	index    string
	id       string
	source   []byte
	seq      *int64
	term     *int64
	reqAl    bool
	err      *eserr.Error
	target   *store.Index
	result   *store.Result
	// upd is an update action's body; want the _source its response returns.
	upd  *docupdate.Request
	want *sourceRequest
	// written is the source the item wrote (an update's new one), for its response.
	written []byte
}

type bulkMeta struct {
	Index         string          `json:"_index"`
	ID            json.RawMessage `json:"_id"`
	IfSeqNo       *int64          `json:"if_seq_no"`
	IfPrimaryTerm *int64          `json:"if_primary_term"`
	OpType        string          `json:"op_type"`
	RequireAlias  *bool           `json:"require_alias"`
	Routing       string          `json:"routing"`
	Version       json.RawMessage `json:"version"`
	VersionType   string          `json:"version_type"`
	Pipeline      string          `json:"pipeline"`
	// RetryOnConflict is accepted on update actions: the engine's updates never conflict
	// with each other (store.Updater).
	RetryOnConflict *int64 `json:"retry_on_conflict"`
	// id is the id already decoded (by fastActionLine); nil: decode ID.
	id *string
}

// idText returns the id of the action line and whether it has one (null is none).
func (m *bulkMeta) idText() (string, bool) {
	if m.id != nil {
		return *m.id, true
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return "", false
	}
	var s string
	if err := json.Unmarshal(m.ID, &s); err != nil {
		s = string(m.ID) // ES accepts numeric ids and uses their text
	}
	return s, true
}

// parseBulk splits the NDJSON body; a malformed action line fails the whole request, as
// in ES, while per-document problems become per-item errors.
func parseBulk(body []byte, defIndex string, reqAlias bool) ([]*bulkItem, error) {
	p := actionParsers.Get()
	defer actionParsers.Put(p)
	lines := bytes.Split(body, []byte("\n"))
	var items []*bulkItem
	for i := 0; i < len(lines); i++ {
		line := bytes.TrimSpace(lines[i])
		if len(line) == 0 {
			continue
		}
		it := &bulkItem{index: defIndex, reqAl: reqAlias}
		var meta bulkMeta
		if !fastActionLine(p, line, it, &meta) {
			if err := actionLine(line, i+1, it, &meta); err != nil {
				return nil, err
			}
		}
		fillMeta(it, &meta)
		if it.action != "delete" {
			i++
			if i >= len(lines) || i == len(lines)-1 && len(bytes.TrimSpace(lines[i])) == 0 {
				// ES stops at a final action line without a source line and ignores it.
				break
			}
			if len(bytes.TrimSpace(lines[i])) == 0 {
				return nil, eserr.ActionValidation("no requests added")
			}
			it.source = mapper.Compact(bytes.TrimSpace(lines[i]))
			if err := parseUpdateItem(it); err != nil {
				return nil, err
			}
		}
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, eserr.ActionValidation("no requests added")
	}
	return items, nil
}

// actionLine decodes an action line with encoding/json, whose errors become ES's.
func actionLine(line []byte, lineNo int, it *bulkItem, meta *bulkMeta) error {
	var action map[string]json.RawMessage
	if err := json.Unmarshal(line, &action); err != nil {
		return eserr.IllegalArgument("Malformed action/metadata line [%d], expected START_OBJECT or END_OBJECT but found [VALUE_STRING]", lineNo)
	}
	if len(action) != 1 {
		if len(action) == 0 {
			return eserr.IllegalArgument("Malformed action/metadata line [%d], expected FIELD_NAME but found [END_OBJECT]", lineNo)
		}
		return eserr.IllegalArgument("Malformed action/metadata line [%d], expected END_OBJECT but found [FIELD_NAME]", lineNo)
	}
	var metaRaw json.RawMessage
	for k, v := range action {
		it.action, metaRaw = k, v
	}
	if err := checkAction(it.action, lineNo); err != nil {
		return err
	}
	if err := json.Unmarshal(metaRaw, meta); err != nil {
		return eserr.IllegalArgument("Malformed action/metadata line [%d], expected a simple value for field but found [%s]", lineNo, err.Error())
	}
	return nil
}

// validAction reports whether action is one a bulk action line may name.
func validAction(action string) bool {
	switch action {
	case "index", "create", "delete", "update":
		return true
	}
	return false
}

func checkAction(action string, lineNo int) error {
	if validAction(action) {
		return nil
	}
	return eserr.IllegalArgument("Malformed action/metadata line [%d], expected field [create], [delete], [index] or [update] but found [%s]", lineNo, action)
}

// fillMeta records the action line in it; problems become the item's own error, as ES
// answers them per item.
func fillMeta(it *bulkItem, m *bulkMeta) {
	if m.Index != "" {
		it.index = m.Index
	}
	if m.OpType == "create" && it.action == "index" {
		it.action = "create"
	}
	it.opCreate = it.action == "create"
	if m.RequireAlias != nil {
		it.reqAl = *m.RequireAlias
	}
	it.seq, it.term = m.IfSeqNo, m.IfPrimaryTerm
	switch {
	case it.index == "":
		it.err = eserr.ActionValidation("index is missing")
	case len(m.Version) > 0 || m.VersionType != "":
		it.err = eserr.IllegalArgument("external versioning is not supported by this engine")
	case m.Pipeline != "":
		it.err = eserr.IllegalArgument("ingest pipelines are not supported by this engine")
	}
	if id, ok := m.idText(); ok {
		it.id = id
		if it.id == "" && it.err == nil {
			it.err = eserr.IllegalArgument("if _id is specified it must not be empty")
		}
	} else if (it.action == "delete" || it.action == "update") && it.err == nil {
		it.err = eserr.ActionValidation("id is missing")
	}
	if it.err == nil {
		if err := validateCAS(it.seq, it.term, it.action == "create"); err != nil {
			it.err = eserr.As(err)
		}
	}
}

func (a *API) bulk(defIndex string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		start := time.Now()
		if err := unsupportedParams(q, "pipeline", "require_data_stream"); err != nil {
			return 0, nil, err
		}
		mode, err := refreshMode(q)
		if err != nil {
			return 0, nil, err
		}
		items, err := parseBulk(q.body, defIndex, q.param("require_alias") == "true")
		if err != nil {
			return 0, nil, err
		}
		a.resolveTargets(items)
		touched, err := a.applyBulk(items)
		if err != nil {
			return 0, nil, err
		}
		if mode != "false" {
			for _, ix := range touched {
				if err := ix.Refresh(); err != nil {
					return 0, nil, err
				}
			}
		}
		return 200, renderBulk(items, time.Since(start), mode == "true"), nil
	}
}

func (a *API) resolveTargets(items []*bulkItem) {
	cache := map[string]*store.Index{}
	for _, it := range items {
		if it.err != nil {
			continue
		}
		if it.id == "" {
			it.id = newID()
			it.opCreate = true
		}
		key := fmt.Sprintf("%s\x00%v\x00%v", it.index, it.reqAl, it.action == "delete")
		if ix, ok := cache[key]; ok {
			it.target = ix
			continue
		}
		var ix *store.Index
		var err error
		if it.action == "delete" {
			ix, err = a.writeIndexNoCreate(it.index)
		} else {
			ix, err = a.Store.WriteTarget(it.index, it.reqAl)
		}
		if err != nil {
			it.err = eserr.As(err)
			continue
		}
		cache[key] = ix
		it.target = ix
	}
}

// applyBulk groups items per index (keeping their order) so each index takes its write
// lock and fsyncs its translog once per request.
func (a *API) applyBulk(items []*bulkItem) ([]*store.Index, error) {
	var order []*store.Index
	groups := map[*store.Index][]*bulkItem{}
	for _, it := range items {
		if it.err != nil || it.target == nil {
			continue
		}
		if _, ok := groups[it.target]; !ok {
			order = append(order, it.target)
		}
		groups[it.target] = append(groups[it.target], it)
	}
	for _, ix := range order {
		its := groups[ix]
		ops := make([]store.Op, len(its))
		for i, it := range its {
			kind := store.OpIndex
			switch {
			case it.action == "delete":
				kind = store.OpDelete
			case it.opCreate:
				kind = store.OpCreate
			}
			ops[i] = store.Op{Kind: kind, ID: it.id, Source: it.source, IfSeqNo: it.seq, IfPrimaryTerm: it.term}
			if it.upd != nil {
				ops[i].Kind, ops[i].Update = store.OpUpdate, it.upd
			}
		}
		res, err := ix.Write(ops)
		if err != nil {
			return nil, err
		}
		for i := range res {
			its[i].result, its[i].written = &res[i], ops[i].Source
		}
	}
	return order, nil
}

func renderBulk(items []*bulkItem, took time.Duration, forced bool) map[string]any {
	out := make([]any, len(items))
	errors := false
	for i, it := range items {
		var body any
		switch {
		case it.err != nil:
			errors = true
			body = map[string]any{"_index": it.index, "_id": nilIfEmpty(it.id), "status": it.err.Status, "error": it.err.BodyJSON()}
		case it.result.Err != nil:
			errors = true
			body = map[string]any{"_index": it.target.Name, "_id": it.id, "status": it.result.Status, "error": it.result.Err.BodyJSON()}
		default:
			w := writeResponse(it.target, *it.result)
			w.Status, w.ForcedRefresh = it.result.Status, forced
			w.Get = updatedSource(w, it.written, it.want)
			body = w
		}
		out[i] = map[string]any{it.action: body}
	}
	return map[string]any{"took": took.Milliseconds(), "errors": errors, "items": out}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// parseUpdateItem reads an update action's body. A body that does not parse fails the
// request, as in ES; one asking for what the engine lacks (a script) fails its item.
func parseUpdateItem(it *bulkItem) error {
	if it.action != "update" || it.err != nil {
		return nil
	}
	u, err := docupdate.Parse(it.source, it.id, it.seq != nil)
	if err == nil {
		it.want, err = bodySourceFilter(u.Source)
	}
	if err == nil {
		it.upd = u
		return nil
	}
	if e := eserr.As(err); e.Type != "x_content_parse_exception" {
		it.err = e
		return nil
	}
	return err
}
