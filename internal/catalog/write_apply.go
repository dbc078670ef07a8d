package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/internal/es"
)

// Step 4 of a write, apply: the _bulk of its records, through the alias, and the undo
// of a refused one. BulkAt fills physical indices with the same requests.
//
// A POST /records whose records the mapping check accepted can still have one refused
// by the backend inside _bulk (a rule the check does not know). The items before and
// after it are written by then; undoing them keeps "a bad record writes nothing": the
// documents are read before the write (_mget) and restored after a refusal.

// upsertOrUndo writes records at version rev; when the backend refuses one, it restores
// what the others changed and returns the refusal, so the request has no effect.
// It returns the records the write added.
func (s *Service) upsertOrUndo(ctx context.Context, alias string, records []Record, rev int64) (int64, error) {
	if len(records) == 1 {
		// A _bulk of one item that is refused wrote nothing: there is nothing to undo.
		return s.bulkWrite(ctx, alias, upsertOps(records, rev))
	}
	prior, err := s.priorDocs(ctx, alias, uniqueIDs(records))
	if err != nil {
		return 0, err
	}
	added, err := s.bulkWrite(ctx, alias, upsertOps(records, rev))
	var be *bulkError
	if !errors.As(err, &be) || len(be.written) == 0 {
		return added, err
	}
	if uerr := s.undo(context.WithoutCancel(ctx), alias, be.written, prior); uerr != nil {
		// Some records of the refused request may stay written: not a 400 any more.
		return 0, fmt.Errorf("%w: %s; undoing the other records failed: %w", es.ErrUnavailable, be.err.Error(), uerr)
	}
	return 0, err
}

// priorDocs reads the stored documents of ids in real time; absent ones are left out.
func (s *Service) priorDocs(ctx context.Context, alias string, ids []string) (map[string]json.RawMessage, error) {
	docs, err := s.mgetDocs(ctx, alias, ids)
	if err != nil {
		return nil, err
	}
	prior := make(map[string]json.RawMessage, len(docs))
	for _, d := range docs {
		if d.Found {
			prior[d.ID] = d.Source
		}
	}
	return prior, nil
}

// mgetDoc is one document of an _mget answer.
type mgetDoc struct {
	Index       string          `json:"_index"`
	ID          string          `json:"_id"`
	Found       bool            `json:"found"`
	SeqNo       int64           `json:"_seq_no"`
	PrimaryTerm int64           `json:"_primary_term"`
	Source      json.RawMessage `json:"_source"`
}

// mgetDocs reads the documents of ids in real time, in their order.
func (s *Service) mgetDocs(ctx context.Context, alias string, ids []string) ([]mgetDoc, error) {
	body, err := json.Marshal(map[string]any{"ids": ids})
	if err != nil {
		return nil, fmt.Errorf("encoding an _mget: %w", err)
	}
	res, err := s.es.Mget().Index(alias).Realtime(true).Raw(bytes.NewReader(body)).Perform(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading %d records of %s: %w", len(ids), alias, es.Classify(err))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("reading %d records of %s: status %d: %w", len(ids), alias, res.StatusCode, es.ErrUnavailable)
	}
	var out struct {
		Docs []mgetDoc `json:"docs"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("decoding the records of %s: %w", alias, err)
	}
	return out.Docs, nil
}

// undo restores the documents a refused write changed: the prior version, or nothing
// where there was none. Each is conditional on the seq_no the refused write gave it,
// so a later write of another request is never undone.
func (s *Service) undo(ctx context.Context, alias string, done []written, prior map[string]json.RawMessage) error {
	last := map[string]written{} // with repeated ids, the last item holds the current seq_no
	order := []string{}
	for _, w := range done {
		if _, ok := last[w.id]; !ok {
			order = append(order, w.id)
		}
		last[w.id] = w
	}
	var buf bytes.Buffer
	for _, id := range order {
		w := last[id]
		meta, _ := json.Marshal(map[string]any{"_id": id, "if_seq_no": w.seq, "if_primary_term": w.term})
		if src, ok := prior[id]; ok {
			fmt.Fprintf(&buf, "{\"index\":%s}\n%s\n", meta, src)
		} else {
			fmt.Fprintf(&buf, "{\"delete\":%s}\n", meta)
		}
	}
	res, err := s.es.Bulk().Index(alias).RequireAlias(true).Refresh(refresh.Waitfor).Raw(&buf).Do(ctx)
	if err != nil {
		return fmt.Errorf("restoring %d records of %s: %w", len(order), alias, es.Classify(err))
	}
	for _, item := range res.Items {
		for _, r := range item {
			if r.Error != nil && r.Status != http.StatusConflict { // a conflict: written since, keep it
				return fmt.Errorf("restoring record %v of %s: %s", r.Id_, alias, r.Error.Type)
			}
		}
	}
	return nil
}

// BulkOp is one action of a _bulk request: index Doc under ID, or delete ID. An index
// action may be conditional: only over the document of seq_no Seq (with Term), or only
// where there is none (Create).
type BulkOp struct {
	ID     string
	Doc    []byte
	Delete bool
	Create bool
	Seq    *int64
	Term   int64
}

// upsertOps turns records into index actions carrying version rev.
func upsertOps(records []Record, rev int64) []BulkOp {
	ops := make([]BulkOp, len(records))
	for i, r := range records {
		ops[i] = BulkOp{ID: r.ID, Doc: WithVersion(r.Raw, rev)}
	}
	return ops
}

// plainOps turns records into index actions without a version: replacement records,
// whose version is the replacement's revision (State.Bases).
func plainOps(records []Record) []BulkOp {
	ops := make([]BulkOp, len(records))
	for i, r := range records {
		ops[i] = BulkOp{ID: r.ID, Doc: r.Raw}
	}
	return ops
}

// encodeBulk renders ops as a _bulk body.
func encodeBulk(ops []BulkOp) []byte {
	size := 0
	for _, op := range ops {
		size += len(op.Doc) + len(op.ID) + 32
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	for _, op := range ops {
		id, _ := json.Marshal(op.ID)
		if op.Delete {
			buf.WriteString(`{"delete":{"_id":`)
			buf.Write(id)
			buf.WriteString("}}\n")
			continue
		}
		if op.Create {
			buf.WriteString(`{"create":{"_id":`)
		} else {
			buf.WriteString(`{"index":{"_id":`)
		}
		buf.Write(id)
		if op.Seq != nil {
			fmt.Fprintf(buf, `,"if_seq_no":%d,"if_primary_term":%d`, *op.Seq, op.Term)
		}
		buf.WriteString("}}\n")
		buf.Write(op.Doc)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// bulkWrite sends ops through alias in one _bulk (never creating an index by accident)
// and returns once they are searchable (refresh=wait_for), with the records they added
// less those they deleted. The first failed item becomes the error, naming its position.
func (s *Service) bulkWrite(ctx context.Context, alias string, ops []BulkOp) (int64, error) {
	return s.bulk(ctx, alias, true, ops, 0)
}

// BulkAt fills a physical index with ops that start at position offset of the request.
func (s *Service) BulkAt(ctx context.Context, index string, ops []BulkOp, offset int) error {
	_, err := s.bulk(ctx, index, false, ops, offset)
	return err
}

func (s *Service) bulk(ctx context.Context, index string, live bool, ops []BulkOp, offset int) (int64, error) {
	if len(ops) == 0 {
		return 0, nil
	}
	items, err := s.bulkItems(ctx, index, live, ops)
	if err != nil {
		return 0, err
	}
	if err := failure(items, offset); err != nil {
		return 0, err
	}
	return bulkAdded(items), nil
}

// bulkItems sends ops to index in one _bulk (through an alias, live: never creating an
// index, searchable on return) and returns its items.
func (s *Service) bulkItems(ctx context.Context, index string, live bool, ops []BulkOp) ([]es.BulkItem, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrLeaseLost, err)
	}
	req := s.es.Bulk().Index(index).Raw(bytes.NewReader(encodeBulk(ops)))
	if live {
		req = req.RequireAlias(true).Refresh(refresh.Waitfor)
	}
	res, err := req.Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(ops), res, err)
	if err != nil {
		return nil, fmt.Errorf("writing %d records to %s: %w", len(ops), index, err)
	}
	if live {
		s.learnTarget(index, items)
	}
	return items, nil
}

// written is a document a _bulk item wrote, with the seq_no and primary term it got.
type written struct {
	id        string
	seq, term int64
}

// bulkError is a _bulk whose items did not all succeed: err is the first failure,
// naming its position; written are the items that did succeed, for an undo.
type bulkError struct {
	err     error
	written []written
}

func (e *bulkError) Error() string { return e.err.Error() }
func (e *bulkError) Unwrap() error { return e.err }

// failure is nil when every item succeeded.
func failure(items []es.BulkItem, offset int) error {
	out := &bulkError{}
	for i, r := range items {
		if r.Error == nil {
			if r.ID != "" && r.SeqNo != nil && r.PrimaryTerm != nil {
				out.written = append(out.written, written{id: r.ID, seq: *r.SeqNo, term: *r.PrimaryTerm})
			}
			continue
		}
		if out.err == nil {
			out.err = itemError(r, fmt.Sprintf("records[%d]", offset+i))
		}
	}
	if out.err == nil {
		return nil
	}
	return out
}

// itemError is the error of a failed _bulk item, naming it as place: the backend's
// trouble (a retry may succeed) or a refusal of the record.
func itemError(r es.BulkItem, place string) error {
	if r.Status >= http.StatusInternalServerError || r.Status == http.StatusTooManyRequests {
		return fmt.Errorf("%w: %s: %s", es.ErrUnavailable, place, r.Error.Reason)
	}
	return Invalid("%s: %s", place, refusal(r.Error.Type, r.Error.Reason))
}

// bulkAdded is the records a _bulk's items created less those they deleted.
func bulkAdded(items []es.BulkItem) int64 {
	var n int64
	for _, r := range items {
		switch {
		case r.Error != nil:
		case r.Result == "created":
			n++
		case r.Result == "deleted":
			n--
		}
	}
	return n
}
