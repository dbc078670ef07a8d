package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// A partial update (POST /records/partial) is a record write (write.go's steps) whose
// apply step reads the records it changes, applies its operations to them
// (ApplyOperations, pure) and writes each changed record only over the document it
// read (if_seq_no/if_primary_term, or create for a new one). A record another write
// changed in between is read again and its operations applied again, until the
// revision's lease runs out: so concurrent increments of one record are all counted.

// Partial applies p as one write with one revision; operations refused for their record
// (a missing record without createIfMissing, another version than expectedVersion, a
// field of another type) are listed in the receipt's Rejected and the others apply.
func (s *Service) Partial(ctx context.Context, t Target, p Partial, bodyHash string) (Receipt, error) {
	return s.once(ctx, t.Names, p.IdempotencyKey, bodyHash,
		func(tk ticket) error { return s.checkPartial(ctx, t, tk, p.Ops) },
		func(tk ticket) (Receipt, error) {
			var rejected []Rejection
			rec, err := s.write(ctx, t.Names, tk, func(ctx context.Context, w run) (change, error) {
				var ch change
				var err error
				ch, rejected, err = s.applyPartial(ctx, t.Names, p.Ops, w)
				return ch, err
			})
			if err == nil {
				rec.Rejected = rejected
			}
			return rec, err
		})
}

// checkPartial (step 2) checks the records the operations may create against the plan,
// and the values they write against the index's field types, so that a value no record
// could hold refuses the request before it takes a revision.
func (s *Service) checkPartial(ctx context.Context, t Target, tk ticket, ops []PartialOperation) error {
	if err := s.checkPlanUpsert(ctx, t, tk, creatable(ops)); err != nil {
		return err
	}
	values := make([]Record, len(ops))
	for i, op := range ops {
		r, err := valuesRecord(i, op)
		if err != nil {
			return err
		}
		values[i] = r
	}
	return s.checkLive(ctx, t.Names, values)
}

// creatable are the records the operations may create, for the plan check (existing
// ones do not count).
func creatable(ops []PartialOperation) []Record {
	var out []Record
	for _, op := range ops {
		if op.CreateIfMissing {
			out = append(out, Record{ID: *op.ObjectID})
		}
	}
	return out
}

// partialRound is one read and write of the records whose operations are still to
// apply.
type partialRound struct {
	ids      []string
	changed  []string // of ids, those the operations change, in the order written
	records  []Record
	writes   []BulkOp
	rejected map[string][]Rejection
	prior    map[string]json.RawMessage // stored documents read, for an undo
}

// applyPartial is the apply step: rounds of read, apply, conditional write, until no
// record was changed by another write in between.
func (s *Service) applyPartial(ctx context.Context, names esnames.Index, ops []PartialOperation, w run) (change, []Rejection, error) {
	rev := w.rev
	byID, ids := opsByRecord(ops)
	one := len(ids) == 1
	ch := change{applied: true}
	var rejected []Rejection
	var done []written
	prior := map[string]json.RawMessage{}
	for len(ids) > 0 {
		r, err := s.partialRound(ctx, names, ops, byID, ids, rev)
		if err == nil {
			err = s.checkLive(ctx, names, r.records)
		}
		var items []es.BulkItem
		if err == nil && len(r.writes) > 0 {
			if one {
				w.land(ids) // write_land.go: beside the _bulk of the one record
			}
			items, err = s.bulkItems(ctx, names.Alias(), true, r.writes)
		}
		for id, src := range r.prior {
			prior[id] = src
		}
		var retry []string
		if err == nil {
			retry, done, err = settle(r, items, done, &ch)
		}
		if err != nil {
			return change{}, nil, s.undoPartial(ctx, names.Alias(), done, items, prior, err)
		}
		for _, id := range r.ids {
			if !slices.Contains(retry, id) {
				rejected = append(rejected, r.rejected[id]...)
			}
		}
		ids = retry
	}
	sortRejections(rejected)
	return ch, rejected, nil
}

// settle reads a round's _bulk items: written records join done, records changed in
// between are to retry, and any other refusal is the request's error.
func settle(r partialRound, items []es.BulkItem, done []written, ch *change) (retry []string, _ []written, err error) {
	for i, it := range items {
		switch {
		case it.Status == http.StatusConflict:
			retry = append(retry, r.changed[i])
		case it.Error != nil && err == nil:
			err = itemError(it, r.records[i].Place)
		case it.Error == nil:
			if it.SeqNo != nil && it.PrimaryTerm != nil {
				done = append(done, written{id: it.ID, seq: *it.SeqNo, term: *it.PrimaryTerm})
			}
			if it.Result == "created" {
				ch.added++
			}
		}
	}
	return retry, done, err
}

// undoPartial restores what the request wrote before failing with cause; the
// request then has no effect.
func (s *Service) undoPartial(ctx context.Context, alias string, done []written, items []es.BulkItem, prior map[string]json.RawMessage, cause error) error {
	for _, it := range items {
		if it.Error == nil && it.SeqNo != nil && it.PrimaryTerm != nil {
			done = append(done, written{id: it.ID, seq: *it.SeqNo, term: *it.PrimaryTerm})
		}
	}
	if len(done) == 0 {
		return cause
	}
	if err := s.undo(context.WithoutCancel(ctx), alias, done, prior); err != nil {
		return fmt.Errorf("%w: %s; undoing the other records failed: %w", es.ErrUnavailable, cause.Error(), err)
	}
	return cause
}

// partialRound reads the records ids and applies their operations.
func (s *Service) partialRound(ctx context.Context, names esnames.Index, ops []PartialOperation, byID map[string][]int, ids []string, rev int64) (partialRound, error) {
	docs, err := s.mgetDocs(ctx, names.Alias(), ids)
	if err != nil {
		return partialRound{}, err
	}
	r := partialRound{ids: ids, rejected: map[string][]Rejection{}, prior: map[string]json.RawMessage{}}
	for _, d := range docs {
		cur, err := s.storedRecord(ctx, names, d)
		if err != nil {
			return partialRound{}, err
		}
		next, changed, rejected := ApplyOperations(cur, ops, byID[d.ID])
		r.rejected[d.ID] = rejected
		if !changed {
			continue
		}
		raw, err := EncodeRecord(next.Fields)
		if err != nil {
			return partialRound{}, err
		}
		op := BulkOp{ID: d.ID, Doc: WithVersion(raw, rev), Create: !d.Found}
		if d.Found {
			seq := d.SeqNo
			op.Seq, op.Term = &seq, d.PrimaryTerm
			r.prior[d.ID] = d.Source
		}
		place := fmt.Sprintf("operations[%d] (objectID %q)", byID[d.ID][0], d.ID)
		r.changed = append(r.changed, d.ID)
		r.records = append(r.records, Record{ID: d.ID, Raw: raw, Place: place})
		r.writes = append(r.writes, op)
	}
	return r, nil
}

// storedRecord is the record of an _mget document, with its version.
func (s *Service) storedRecord(ctx context.Context, names esnames.Index, d mgetDoc) (StoredRecord, error) {
	if !d.Found {
		return StoredRecord{}, nil
	}
	fields, version, err := storedFields(d.Source)
	if err != nil {
		return StoredRecord{}, err
	}
	if version, err = s.versionIn(ctx, names, d.Index, version); err != nil {
		return StoredRecord{}, err
	}
	return StoredRecord{Fields: fields, Version: version}, nil
}

// opsByRecord groups the operations' positions by record, records in order of first
// mention.
func opsByRecord(ops []PartialOperation) (map[string][]int, []string) {
	byID := map[string][]int{}
	var ids []string
	for i, op := range ops {
		id := *op.ObjectID
		if _, ok := byID[id]; !ok {
			ids = append(ids, id)
		}
		byID[id] = append(byID[id], i)
	}
	return byID, ids
}
