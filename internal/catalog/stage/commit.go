package stage

import (
	"context"
	"errors"
	"fmt"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
)

// commit claims the commit in the manifest (or takes over a crashed one), switches the
// catalog to the stage and records the receipt.
func (s stages) commit(ctx context.Context, t catalog.Target, id string, expBatches, expRecords int64) (catalog.Receipt, error) {
	d, action, err := s.claimCommit(ctx, t, id, expBatches, expRecords)
	switch {
	case errors.Is(err, errCommitDone):
		return *d.Receipt, nil
	case errors.Is(err, errCommitRunning):
		return catalog.Receipt{}, fmt.Errorf("%w: the stage is being committed", catalog.ErrBusy)
	case err != nil:
		return catalog.Receipt{}, err
	}
	r, err := s.switchTo(ctx, t, d, action == commitTakeOver)
	if err != nil {
		s.reopen(context.WithoutCancel(ctx), t, id)
		return catalog.Receipt{}, err
	}
	_, err = s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		d.State, d.Receipt, d.Deadline = Committed, &r, 0
		d.UpdatedAt = s.cfg.Now().UnixMilli()
		return d, nil
	})
	if err != nil {
		return catalog.Receipt{}, fmt.Errorf("recording the commit of stage %q: %w", id, err)
	}
	return r, nil
}

// claimCommit marks the stage committing in its manifest, waiting (bounded) while
// another commit of it runs. errCommitDone, with the manifest, says it was committed
// before; errCommitRunning that the wait gave up.
func (s stages) claimCommit(ctx context.Context, t catalog.Target, id string, expBatches, expRecords int64) (stageDoc, commitAction, error) {
	var d stageDoc
	var action commitAction
	err := wait.For(ctx, s.cfg.FenceLease+s.cfg.WriteLease, func() error {
		var err error
		d, err = s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
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
			d.State = Committing
			d.Deadline = s.cfg.Now().Add(s.cfg.FenceLease + s.cfg.WriteLease).UnixMilli()
			return d, nil
		})
		return err
	}, errCommitRunning)
	return d, action, err
}

var (
	errCommitRunning = errors.New("commit running")
	errCommitDone    = errors.New("commit done")
)

// commitOwner is the fence owner of stage id's commit, the same for every attempt.
func commitOwner(id string) string { return Kind + "." + id }

// switchTo swaps the stage index in. A takeover first settles what the crashed commit
// left behind; when that commit had already moved the alias, only the receipt is left.
func (s stages) switchTo(ctx context.Context, t catalog.Target, d stageDoc, takeover bool) (catalog.Receipt, error) {
	owner := commitOwner(d.StageID)
	if takeover {
		r, done, err := s.settle(ctx, t.Names, d, owner)
		if err != nil || done {
			return r, err
		}
	}
	if err := s.cat.Refresh(ctx, d.Physical); err != nil {
		return catalog.Receipt{}, err
	}
	n, err := s.cat.Count(ctx, d.Physical)
	if err != nil {
		return catalog.Receipt{}, err
	}
	if err := s.cat.CheckPlanTotal(ctx, t, n); err != nil {
		return catalog.Receipt{}, err
	}
	return s.cat.Swap(ctx, t.Names, d.Physical, owner, func(st catalog.State) error {
		if st.LastWrite > d.StartRevision {
			return fmt.Errorf("%w: revision %d was written after the stage started at revision %d",
				ErrOutdated, st.LastWrite, d.StartRevision)
		}
		return nil
	})
}

// settle repairs the revision document after a crashed commit of stage d
// (catalog.State.Settle) and reports whether that commit had switched the catalog, with its receipt then.
func (s stages) settle(ctx context.Context, names esnames.Index, d stageDoc, owner string) (catalog.Receipt, bool, error) {
	target, err := s.cat.AliasTarget(ctx, names)
	if err != nil {
		return catalog.Receipt{}, false, err
	}
	moved := target == d.Physical
	st, err := s.cat.Update(ctx, names, func(st catalog.State) (catalog.State, error) {
		return st.Settle(s.cfg.Now(), owner, d.Physical, moved), nil
	})
	if err != nil {
		return catalog.Receipt{}, false, fmt.Errorf("settling the crashed commit of stage %q: %w", d.StageID, err)
	}
	if !moved {
		return catalog.Receipt{}, false, nil
	}
	r, err := s.cat.ReceiptAt(ctx, names, st.Bases[d.Physical], st)
	return r, true, err
}

// reopen puts a stage whose commit failed back to open, so it can be aborted or retried.
func (s stages) reopen(ctx context.Context, t catalog.Target, id string) {
	_, _ = s.update(ctx, t.Names, id, func(d stageDoc) (stageDoc, error) {
		if d.State == Committing {
			d.State, d.Deadline = Open, 0
		}
		return d, nil
	})
}
