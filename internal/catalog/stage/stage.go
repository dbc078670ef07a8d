// Package stage holds staged replacements of a catalog (the /staged-replacements
// endpoints): a stage fills its own physical index batch by batch, and its commit swaps
// that index behind the alias (catalog.Service.Swap) when no write reached the index
// since the stage started. The stage's manifest ("stage.<id>" in the control index)
// records its batches and state, changed only by compare-and-set; a commit that crashed
// is taken over and settled by the next one (commit.go).
package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// Domain errors; the HTTP layer maps each to its status.
var (
	// ErrNotFound: no such staged replacement (404).
	ErrNotFound = errors.New("staged replacement not found")
	// ErrBatchConflict: a batch re-uploaded with different records (409).
	ErrBatchConflict = errors.New("batch was already uploaded with different records")
	// ErrClosed: the stage is committed or aborted and takes no more changes (409).
	ErrClosed = errors.New("staged replacement is no longer open")
	// ErrOutdated: writes reached the index since the stage started (409).
	ErrOutdated = errors.New("other writes reached the index since the staged replacement started")
	// ErrCountMismatch: commit's expected counts differ from the stage's (422).
	ErrCountMismatch = errors.New("staged replacement counts differ from the expected counts")
)

// MaxBatchRecords is the contract's limit of records per uploaded batch.
const MaxBatchRecords = 1000

// Start starts stage id, or returns its status when it exists (created false).
func Start(ctx context.Context, c *catalog.Service, t catalog.Target, id string) (Status, bool, error) {
	return on(c).start(ctx, t, id)
}

// Upload adds a batch of records to an open stage; hash identifies the batch's body.
func Upload(ctx context.Context, c *catalog.Service, t catalog.Target, id, batchID string, records []catalog.Record, hash string) (Status, error) {
	return on(c).upload(ctx, t, id, batchID, records, hash)
}

// Commit switches the catalog to stage id when its counts match and no write reached
// the index since the stage started; a repeated commit returns the first receipt.
func Commit(ctx context.Context, c *catalog.Service, t catalog.Target, id string, expBatches, expRecords int64) (catalog.Receipt, error) {
	return on(c).commit(ctx, t, id, expBatches, expRecords)
}

// Abort abandons an open stage and deletes its index.
func Abort(ctx context.Context, c *catalog.Service, t catalog.Target, id string) (Status, error) {
	return on(c).abort(ctx, t, id)
}

// CommitRequest is the body of POST /staged-replacements/{stageId}/commit.
type CommitRequest struct {
	ExpectedBatches *int64 `json:"expectedBatches"`
	ExpectedRecords *int64 `json:"expectedRecords"`
}

// ValidateCommit checks a commit request and returns its counts.
func ValidateCommit(r CommitRequest) (batches, records int64, err error) {
	if r.ExpectedBatches == nil || r.ExpectedRecords == nil || *r.ExpectedBatches < 0 || *r.ExpectedRecords < 0 {
		return 0, 0, catalog.Invalid("expectedBatches and expectedRecords are required integers of at least 0")
	}
	return *r.ExpectedBatches, *r.ExpectedRecords, nil
}

// stages runs the stage operations on a catalog service.
type stages struct {
	cat  *catalog.Service
	cfg  catalog.Config
	docs *controlindex.Store
}

func on(c *catalog.Service) stages {
	return stages{cat: c, cfg: c.Config(), docs: c.Docs()}
}

func (s stages) start(ctx context.Context, t catalog.Target, id string) (Status, bool, error) {
	if d, _, err := s.get(ctx, t.Names, id); err == nil {
		return d.status(s.cfg.StageTTL), false, nil
	} else if !errors.Is(err, ErrNotFound) {
		return Status{}, false, err
	}
	// Read the revision before the stage exists: a write racing the start counts as
	// after it, which can only make the commit refuse, never lose the write.
	st, err := s.cat.ReadState(ctx, t.Names)
	if err != nil {
		return Status{}, false, err
	}
	physical, err := s.cat.NewPhysical(ctx, t, Kind, id)
	if err != nil {
		return Status{}, false, err
	}
	now := s.cfg.Now().UnixMilli()
	d := stageDoc{Kind: Kind, StageID: id, State: Open, Physical: physical, StartRevision: st.Accepted(),
		Batches: map[string]batchInfo{}, CreatedAt: now, UpdatedAt: now}
	if _, err := s.docs.Put(ctx, t.Names.Control(), stageID(id), controlindex.Versioned{}, d); err != nil {
		s.cat.DeleteIndex(ctx, physical)
		if errors.Is(err, es.ErrConflict) { // a concurrent start won
			d, _, err := s.get(ctx, t.Names, id)
			return d.status(s.cfg.StageTTL), false, err
		}
		return Status{}, false, err
	}
	return d.status(s.cfg.StageTTL), true, nil
}

// upload claims the batch in the manifest before its records are written, so a
// different upload of the same batch is refused before it can write anything.
func (s stages) upload(ctx context.Context, t catalog.Target, id, batchID string, records []catalog.Record, hash string) (Status, error) {
	if err := s.checkStage(ctx, t.Names, id, records); err != nil {
		return Status{}, err
	}
	var action uploadAction
	d, err := s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		next, a, err := decideUpload(d, s.cfg.Now(), batchID, hash, len(records))
		action = a
		return next, err
	})
	if err != nil {
		return Status{}, err
	}
	if action == uploadNoop {
		return d.status(s.cfg.StageTTL), nil
	}
	if err := s.cat.Fill(ctx, d.Physical, records); err != nil {
		return Status{}, err
	}
	d, err = s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		b := d.Batches[batchID]
		if d.State != Open || b.Hash != hash {
			return d, fmt.Errorf("%w: stage is %s", ErrClosed, d.State)
		}
		b.Done = true
		d.Batches[batchID] = b
		d.UpdatedAt = s.cfg.Now().UnixMilli()
		return d, nil
	})
	if err != nil {
		return Status{}, err
	}
	return d.status(s.cfg.StageTTL), nil
}

func (s stages) abort(ctx context.Context, t catalog.Target, id string) (Status, error) {
	d, err := s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		switch {
		case d.State == Committed:
			return d, fmt.Errorf("%w: stage is committed", ErrClosed)
		case d.State == Committing && d.Deadline > s.cfg.Now().UnixMilli():
			return d, fmt.Errorf("%w: the stage is being committed", catalog.ErrBusy)
		}
		d.State = Aborted
		d.UpdatedAt = s.cfg.Now().UnixMilli()
		return d, nil
	})
	if err != nil {
		return Status{}, err
	}
	target, err := s.cat.AliasTarget(ctx, t.Names)
	if err == nil && target != d.Physical {
		s.cat.DeleteIndex(ctx, d.Physical)
		_ = s.docs.Delete(ctx, t.Names.Control(), stageID(id), controlindex.Versioned{})
	}
	return d.status(s.cfg.StageTTL), nil
}

// checkStage checks a batch against the stage index's mapping, with the fields earlier
// batches mapped, before the batch is claimed: a refused batch can be fixed and sent
// again under the same batchId.
func (s stages) checkStage(ctx context.Context, names esnames.Index, id string, records []catalog.Record) error {
	d, _, err := s.get(ctx, names, id)
	if err != nil {
		return err
	}
	m, err := s.cat.Mapping(ctx, d.Physical)
	if err != nil {
		return err
	}
	return catalog.CheckRecords(m, records)
}

// Sweep is the janitor's step for the manifest id (source src) of control index
// control: a live stage holds its index (returned); an abandoned one is removed with
// its index, unless that index is target, the one behind the alias.
func Sweep(ctx context.Context, c *catalog.Service, control, target, id string, src json.RawMessage, now time.Time) (string, bool) {
	var d stageDoc
	if json.Unmarshal(src, &d) != nil {
		return "", false
	}
	if !d.abandoned(now, c.Config().StageTTL) {
		return d.Physical, true
	}
	if d.Physical != target {
		c.DeleteIndex(ctx, d.Physical)
	}
	_ = c.Docs().Delete(ctx, control, id, controlindex.Versioned{})
	return "", false
}
