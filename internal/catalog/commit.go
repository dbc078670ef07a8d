package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
)

// CommitStage switches the catalog to stage id when its counts match and no write
// reached the index since the stage started; a repeated commit returns the first receipt.
func (s *Service) CommitStage(ctx context.Context, t Target, id string, expBatches, expRecords int64) (Receipt, error) {
	var d stageDoc
	var action commitAction
	err := wait.For(ctx, s.cfg.FenceLease+s.cfg.WriteLease, func() error {
		var err error
		d, err = s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
			a, err := decideCommit(d, s.cfg.Now(), expBatches, expRecords)
			action = a
			switch {
			case err != nil:
				return d, err
			case a == commitWait:
				return d, errCommitRunning
			case a == commitDone:
				return d, errCommitDone
			}
			d.State = StageCommitting
			d.Deadline = millis(s.cfg.Now().Add(s.cfg.FenceLease + s.cfg.WriteLease))
			return d, nil
		})
		return err
	}, errCommitRunning)
	switch {
	case errors.Is(err, errCommitDone):
		return *d.Receipt, nil
	case errors.Is(err, errCommitRunning):
		return Receipt{}, fmt.Errorf("%w: the stage is being committed", ErrBusy)
	case err != nil:
		return Receipt{}, err
	}
	r, err := s.commit(ctx, t, d, action == commitTakeOver)
	if err != nil {
		s.reopen(context.WithoutCancel(ctx), t, id)
		return Receipt{}, err
	}
	_, err = s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		d.State, d.Receipt, d.Deadline = StageCommitted, &r, 0
		d.UpdatedAt = millis(s.cfg.Now())
		return d, nil
	})
	if err != nil {
		return Receipt{}, fmt.Errorf("recording the commit of stage %q: %w", id, err)
	}
	return r, nil
}

var (
	errCommitRunning = errors.New("commit running")
	errCommitDone    = errors.New("commit done")
)

// commitOwner is the fence owner of stage id's commit, the same for every attempt.
func commitOwner(id string) string { return kindStage + "." + id }

// commit swaps the stage index in. A takeover first settles what the crashed commit
// left behind; when that commit had already moved the alias, only the receipt is left.
func (s *Service) commit(ctx context.Context, t Target, d stageDoc, takeover bool) (Receipt, error) {
	owner := commitOwner(d.StageID)
	if takeover {
		r, done, err := s.settle(ctx, t.Names, d, owner)
		if err != nil || done {
			return r, err
		}
	}
	if err := s.refresh(ctx, d.Physical); err != nil {
		return Receipt{}, err
	}
	n, err := s.count(ctx, d.Physical)
	if err != nil {
		return Receipt{}, err
	}
	if err := s.checkPlanTotal(ctx, t, n); err != nil {
		return Receipt{}, err
	}
	return s.swap(ctx, t.Names, d.Physical, owner, func(st State) error {
		if st.LastWrite > d.StartRevision {
			return fmt.Errorf("%w: revision %d was written after the stage started at revision %d",
				ErrStageOutdated, st.LastWrite, d.StartRevision)
		}
		return nil
	})
}

// settle repairs the revision document after a crashed commit of stage d (State.Settle)
// and reports whether that commit had switched the catalog, with its receipt then.
func (s *Service) settle(ctx context.Context, names esnames.Index, d stageDoc, owner string) (Receipt, bool, error) {
	target, err := s.aliasTarget(ctx, names)
	if err != nil {
		return Receipt{}, false, err
	}
	moved := target == d.Physical
	st, err := s.update(ctx, names, func(st State) (State, error) {
		return st.Settle(s.cfg.Now(), owner, d.Physical, moved), nil
	})
	if err != nil {
		return Receipt{}, false, fmt.Errorf("settling the crashed commit of stage %q: %w", d.StageID, err)
	}
	if !moved {
		return Receipt{}, false, nil
	}
	r, err := s.receipt(ctx, names, st.Bases[d.Physical], st)
	return r, true, err
}

// reopen puts a stage whose commit failed back to open, so it can be aborted or retried.
func (s *Service) reopen(ctx context.Context, t Target, id string) {
	_, _ = s.updateStage(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		if d.State == StageCommitting {
			d.State, d.Deadline = StageOpen, 0
		}
		return d, nil
	})
}
