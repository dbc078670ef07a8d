package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

func stageID(id string) string { return kindStage + "." + id }

func (s *Service) getStage(ctx context.Context, names esnames.Index, id string) (stageDoc, controlindex.Versioned, error) {
	v, err := s.docs.Get(ctx, names.Control(), stageID(id))
	if err != nil {
		return stageDoc{}, v, err
	}
	if !v.Found {
		return stageDoc{}, v, fmt.Errorf("%w: %q", ErrStageNotFound, id)
	}
	var d stageDoc
	if err := json.Unmarshal(v.Src, &d); err != nil {
		return stageDoc{}, v, fmt.Errorf("decoding stage %q: %w", id, err)
	}
	return d, v, nil
}

// updateStage applies fn to the stage manifest by compare-and-set, retrying on conflicts.
func (s *Service) updateStage(ctx context.Context, names esnames.Index, id string, fn func(stageDoc) (stageDoc, error)) (stageDoc, error) {
	for attempt := 0; ; attempt++ {
		d, v, err := s.getStage(ctx, names, id)
		if err != nil {
			return d, err
		}
		next, err := fn(d)
		if err != nil {
			return d, err
		}
		if _, err = s.docs.Put(ctx, names.Control(), stageID(id), v, next); err == nil {
			return next, nil
		} else if !errors.Is(err, es.ErrConflict) {
			return d, err
		}
		if err := wait.Sleep(ctx, wait.Backoff(attempt, 2*time.Millisecond, 100*time.Millisecond)); err != nil {
			return d, err
		}
	}
}

// StartStage starts stage id, or returns its status when it exists (created false).
func (s *Service) StartStage(ctx context.Context, t Target, id string) (StageStatus, bool, error) {
	if d, _, err := s.getStage(ctx, t.Names, id); err == nil {
		return d.status(s.cfg.StageTTL), false, nil
	} else if !errors.Is(err, ErrStageNotFound) {
		return StageStatus{}, false, err
	}
	// Read the revision before the stage exists: a write racing the start counts as
	// after it, which can only make the commit refuse, never lose the write.
	st, _, err := s.loadState(ctx, t.Names)
	if err != nil {
		return StageStatus{}, false, err
	}
	physical, err := s.newPhysical(ctx, t, kindStage, id)
	if err != nil {
		return StageStatus{}, false, err
	}
	now := millis(s.cfg.Now())
	d := stageDoc{Kind: kindStage, StageID: id, State: StageOpen, Physical: physical, StartRevision: st.Accepted(),
		Batches: map[string]batchInfo{}, CreatedAt: now, UpdatedAt: now}
	if _, err := s.docs.Put(ctx, t.Names.Control(), stageID(id), controlindex.Versioned{}, d); err != nil {
		s.deleteIndex(ctx, physical)
		if errors.Is(err, es.ErrConflict) { // a concurrent start won
			d, _, err := s.getStage(ctx, t.Names, id)
			return d.status(s.cfg.StageTTL), false, err
		}
		return StageStatus{}, false, err
	}
	return d.status(s.cfg.StageTTL), true, nil
}

// UploadBatch adds a batch of records to an open stage. The batch is claimed in the
// manifest before its records are written, so a different upload of the same batch
// is refused before it can write anything.
func (s *Service) UploadBatch(ctx context.Context, t Target, id, batchID string, records []Record, hash string) (StageStatus, error) {
	if err := s.checkStage(ctx, t.Names, id, records); err != nil {
		return StageStatus{}, err
	}
	var action uploadAction
	d, err := s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		next, a, err := decideUpload(d, s.cfg.Now(), batchID, hash, len(records))
		action = a
		return next, err
	})
	if err != nil {
		return StageStatus{}, err
	}
	if action == uploadNoop {
		return d.status(s.cfg.StageTTL), nil
	}
	if err := s.fill(ctx, d.Physical, plainOps(records)); err != nil {
		return StageStatus{}, err
	}
	d, err = s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		b := d.Batches[batchID]
		if d.State != StageOpen || b.Hash != hash {
			return d, fmt.Errorf("%w: stage is %s", ErrStageClosed, d.State)
		}
		b.Done = true
		d.Batches[batchID] = b
		d.UpdatedAt = millis(s.cfg.Now())
		return d, nil
	})
	if err != nil {
		return StageStatus{}, err
	}
	return d.status(s.cfg.StageTTL), nil
}

// AbortStage abandons an open stage and deletes its index.
func (s *Service) AbortStage(ctx context.Context, t Target, id string) (StageStatus, error) {
	d, err := s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		switch {
		case d.State == StageCommitted:
			return d, fmt.Errorf("%w: stage is committed", ErrStageClosed)
		case d.State == StageCommitting && d.Deadline > millis(s.cfg.Now()):
			return d, fmt.Errorf("%w: the stage is being committed", ErrBusy)
		}
		d.State = StageAborted
		d.UpdatedAt = millis(s.cfg.Now())
		return d, nil
	})
	if err != nil {
		return StageStatus{}, err
	}
	target, err := s.aliasTarget(ctx, t.Names)
	if err == nil && target != d.Physical {
		s.deleteIndex(ctx, d.Physical)
		_ = s.docs.Delete(ctx, t.Names.Control(), stageID(id), controlindex.Versioned{})
	}
	return d.status(s.cfg.StageTTL), nil
}

// checkStage checks a batch against the stage index's mapping, with the fields earlier
// batches mapped, before the batch is claimed: a refused batch can be fixed and sent
// again under the same batchId.
func (s *Service) checkStage(ctx context.Context, names esnames.Index, id string, records []Record) error {
	d, _, err := s.getStage(ctx, names, id)
	if err != nil {
		return err
	}
	m, err := s.fetchMapping(ctx, d.Physical)
	if err != nil {
		return err
	}
	return checkRecords(m, records, true)
}
