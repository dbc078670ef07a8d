package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/optype"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/result"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Operations of a conditional write.
const (
	OpUpsert = "upsert"
	OpDelete = "delete"
)

// ConditionalRequest is the body of POST /record-writes.
type ConditionalRequest struct {
	Operation       string          `json:"operation"`
	ObjectID        string          `json:"objectID"`
	Record          json.RawMessage `json:"record,omitempty"`
	ExpectedVersion *int64          `json:"expectedVersion"`
	// IdempotencyKey is nil when absent; present, it must be a valid key (not "").
	IdempotencyKey *string `json:"idempotencyKey,omitempty"`
}

// Conditional is a validated conditional write.
type Conditional struct {
	Operation       string
	ObjectID        string
	Record          Record
	ExpectedVersion int64
	IdempotencyKey  string
}

// ValidateConditional checks a conditional write request.
func ValidateConditional(r ConditionalRequest) (Conditional, error) {
	c := Conditional{Operation: r.Operation, ObjectID: r.ObjectID}
	if r.Operation != OpUpsert && r.Operation != OpDelete {
		return c, Invalid("operation must be %q or %q", OpUpsert, OpDelete)
	}
	if err := ValidateObjectID(indexmapping.ObjectIDField, r.ObjectID); err != nil {
		return c, err
	}
	if r.ExpectedVersion == nil || *r.ExpectedVersion < 0 {
		return c, Invalid("expectedVersion must be an integer of at least 0")
	}
	c.ExpectedVersion = *r.ExpectedVersion
	if r.IdempotencyKey != nil {
		if err := ValidateKey("idempotencyKey", *r.IdempotencyKey); err != nil {
			return c, err
		}
		c.IdempotencyKey = *r.IdempotencyKey
	}
	hasRecord := len(r.Record) > 0 && !bytes.Equal(bytes.TrimSpace(r.Record), []byte("null"))
	switch {
	case r.Operation == OpDelete && hasRecord:
		return c, Invalid("record must be absent for a delete")
	case r.Operation == OpUpsert && !hasRecord:
		return c, Invalid("record is required for an upsert")
	case r.Operation == OpUpsert:
		rec, err := ValidateRecord(r.Record)
		if err != nil {
			return c, Invalid("record: %s", err)
		}
		if rec.ID != r.ObjectID {
			return c, Invalid("record.objectID must equal objectID")
		}
		c.Record = rec
	}
	return c, nil
}

// ConditionalWrite applies c only if the record's version equals c.ExpectedVersion
// (POST /record-writes). With an idempotency key, the first outcome (receipt or
// conflict) is kept and repeated; bodyHash identifies the request body.
func (s *Service) ConditionalWrite(ctx context.Context, t Target, c Conditional, bodyHash string) (Receipt, error) {
	return s.once(ctx, t.Names, c.IdempotencyKey, bodyHash,
		func(tk ticket) error { return s.checkConditional(ctx, t, tk, c) },
		func(tk ticket) (Receipt, error) { return s.conditional(ctx, t, c, tk) })
}

// once runs a write after its checks (step 2), under an idempotency key when key is
// not "": the first outcome (receipt or conflict) is kept and repeated, bodyHash
// identifying the request. A keyed write runs its checks before claiming the key, and
// takes its ticket only then: a claim may wait for another request with the key, and a
// swap's drain would wait for a reservation held meanwhile.
func (s *Service) once(ctx context.Context, names esnames.Index, key, bodyHash string,
	check func(ticket) error, run func(ticket) (Receipt, error)) (Receipt, error) {
	if key == "" {
		tk := s.ticket(ctx, names)
		if err := check(tk); err != nil {
			s.giveBack(names, tk)
			return Receipt{}, err
		}
		return run(tk)
	}
	if err := check(ticket{}); err != nil {
		return Receipt{}, err
	}
	claim, err := s.claimKey(ctx, names, key, bodyHash)
	if err != nil {
		return Receipt{}, err
	}
	if claim.outcome != nil {
		return claim.outcome.result()
	}
	rec, err := run(s.ticket(ctx, names))
	if oc, ok := outcomeOf(rec, err); ok {
		s.recordKey(context.WithoutCancel(ctx), names, key, claim, oc)
	} else {
		s.releaseKey(context.WithoutCancel(ctx), names, key, claim)
	}
	return rec, err
}

// checkConditional checks an upsert against the plan (a create) and the mapping.
func (s *Service) checkConditional(ctx context.Context, t Target, tk ticket, c Conditional) error {
	if c.Operation != OpUpsert {
		return nil
	}
	if c.ExpectedVersion == 0 {
		if err := s.checkPlanCreate(ctx, t, tk); err != nil {
			return err
		}
	}
	return s.checkLive(ctx, t.Names, []Record{c.Record})
}

func (s *Service) conditional(ctx context.Context, t Target, c Conditional, tk ticket) (Receipt, error) {
	return s.write(ctx, t.Names, tk, func(ctx context.Context, w run) (change, error) {
		// No landing: a refused compare-and-set would count as a write for staged commits.
		return s.compareAndWrite(ctx, t.Names, c, w.rev)
	})
}

// compareAndWrite applies c at revision rev if the record's version is the expected one.
func (s *Service) compareAndWrite(ctx context.Context, names esnames.Index, c Conditional, rev int64) (change, error) {
	alias := names.Alias()
	if c.Operation == OpUpsert && c.ExpectedVersion == 0 {
		// Expecting no record is what op_type=create checks: no read is needed.
		return s.indexIf(ctx, alias, c.ObjectID, WithVersion(c.Record.Raw, rev), storedDoc{})
	}
	// Under this revision's lease no swap can move the alias, so the read and the
	// conditional write below see the same physical index.
	doc, err := s.getDoc(ctx, names, c.ObjectID)
	if err != nil {
		return change{}, err
	}
	current := int64(0)
	if doc.found {
		current = doc.version
	}
	if current != c.ExpectedVersion {
		return change{}, nil
	}
	if c.Operation == OpDelete {
		return s.deleteIf(ctx, alias, c.ObjectID, doc)
	}
	return s.indexIf(ctx, alias, c.ObjectID, WithVersion(c.Record.Raw, rev), doc)
}

// indexIf writes doc only if the stored document is still the one read (or still absent).
func (s *Service) indexIf(ctx context.Context, alias, id string, body []byte, prev storedDoc) (change, error) {
	req := s.es.Index(alias).Id(pathID(id)).Raw(bytes.NewReader(body)).RequireAlias(true).Refresh(refresh.Waitfor)
	if prev.found {
		req = req.IfSeqNo(strconv.FormatInt(prev.seq, 10)).IfPrimaryTerm(strconv.FormatInt(prev.term, 10))
	} else {
		req = req.OpType(optype.Create)
	}
	res, err := req.Do(ctx)
	if err == nil {
		s.maps.setTarget(alias, res.Index_)
		if res.Result == result.Created {
			return change{applied: true, added: 1}, nil
		}
	}
	return casResult(err, id)
}

// deleteIf deletes the record only if it is still the one read; deleting an absent
// record (expectedVersion 0) changes nothing and succeeds.
func (s *Service) deleteIf(ctx context.Context, alias, id string, prev storedDoc) (change, error) {
	if !prev.found {
		return change{applied: true}, nil
	}
	_, err := s.es.Delete(alias, pathID(id)).IfSeqNo(strconv.FormatInt(prev.seq, 10)).
		IfPrimaryTerm(strconv.FormatInt(prev.term, 10)).Refresh(refresh.Waitfor).Do(ctx)
	ch, err := casResult(err, id)
	if ch.applied {
		ch.added = -1
	}
	return ch, err
}

// casResult: a version conflict (or the document vanishing) means another write won.
func casResult(err error, id string) (change, error) {
	err = es.Classify(err)
	switch {
	case err == nil:
		return change{applied: true}, nil
	case errors.Is(err, es.ErrConflict), errors.Is(err, es.ErrNotFound):
		return change{}, nil
	}
	if refused := refusedWrite(err, "record"); refused != err {
		return change{}, refused
	}
	return change{}, fmt.Errorf("writing record %q: %w", id, err)
}
