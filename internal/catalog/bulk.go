package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"

	"github.com/aislehq/aisle/internal/es"
)

// BulkOp is one action of a _bulk request: index Doc under ID, or delete ID.
type BulkOp struct {
	ID     string
	Doc    []byte
	Delete bool
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
		buf.WriteString(`{"index":{"_id":`)
		buf.Write(id)
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
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("%w: %w", ErrLeaseLost, err)
	}
	req := s.es.Bulk().Index(index).Raw(bytes.NewReader(encodeBulk(ops)))
	if live {
		req = req.RequireAlias(true).Refresh(refresh.Waitfor)
	}
	res, err := req.Perform(ctx) //nolint:bodyclose // BulkItems closes it
	items, err := es.BulkItems(len(ops), res, err)
	if err != nil {
		return 0, fmt.Errorf("writing %d records to %s: %w", len(ops), index, err)
	}
	if live {
		s.learnTarget(index, items)
	}
	if err := failure(items, offset); err != nil {
		return 0, err
	}
	return bulkAdded(items), nil
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
		if out.err != nil {
			continue
		}
		if r.Status >= http.StatusInternalServerError || r.Status == http.StatusTooManyRequests {
			out.err = fmt.Errorf("%w: records[%d]: %s", es.ErrUnavailable, offset+i, r.Error.Reason)
		} else {
			out.err = Invalid("records[%d]: %s", offset+i, refusal(r.Error.Type, r.Error.Reason))
		}
	}
	if out.err == nil {
		return nil
	}
	return out
}
