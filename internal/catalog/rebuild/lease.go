package rebuild

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// getRebuild reads the checkpoint in real time.
func (r rebuilder) getRebuild(ctx context.Context, names esnames.Index) (rebuildDoc, controlindex.Versioned, error) {
	return controlindex.Read[rebuildDoc](ctx, r.docs, names, rebuildDocID)
}

// settleRebuild tidies up after a run that moved the alias to its target and stopped
// before removing its checkpoint: its swap's revision counts as a write, its fence goes.
func (r rebuilder) settleRebuild(ctx context.Context, names esnames.Index, d rebuildDoc, v controlindex.Versioned) error {
	if _, err := r.cat.Update(ctx, names, func(st catalog.State) (catalog.State, error) {
		return st.Settle(r.cfg.Now(), fenceOwner(d.Target), d.Target, true), nil
	}); err != nil {
		return fmt.Errorf("settling the rebuild of %s: %w", names.Alias(), err)
	}
	return r.docs.Delete(ctx, names.Control(), rebuildDocID, v)
}

// dropRebuild deletes a checkpoint nobody owns any more, then its target. When the
// compare-and-set fails, someone took the checkpoint over (or dropped it first) and
// the target is left alone.
func (r rebuilder) dropRebuild(ctx context.Context, names esnames.Index, d rebuildDoc, v controlindex.Versioned) error {
	if err := r.docs.Delete(ctx, names.Control(), rebuildDocID, v); err != nil {
		return fmt.Errorf("dropping the rebuild of %s: %w", names.Alias(), err)
	}
	if alias, err := r.cat.AliasTarget(ctx, names); err == nil && alias != d.Target {
		r.cat.DeleteIndex(ctx, d.Target)
	}
	return nil
}

// rebuildLease is one run's hold on the checkpoint.
type rebuildLease struct {
	r        rebuilder
	names    esnames.Index
	owner    string
	deadline atomic.Int64 // Unix milliseconds, as of the last renewal
}

func newRebuildLease(r rebuilder, names esnames.Index, d rebuildDoc) *rebuildLease {
	l := &rebuildLease{r: r, names: names, owner: d.Owner}
	l.deadline.Store(d.Deadline)
	return l
}

// update renews the lease and applies fn to the checkpoint by compare-and-set. It fails
// with ErrTakenOver once the checkpoint is no longer this run's.
func (l *rebuildLease) update(ctx context.Context, fn func(*rebuildDoc)) error {
	for attempt := 0; ; attempt++ {
		d, v, err := l.r.getRebuild(ctx, l.names)
		if err != nil {
			return err
		}
		if !v.Found || d.Owner != l.owner {
			return ErrTakenOver
		}
		now := l.r.cfg.Now()
		d.Deadline, d.UpdatedAt = now.Add(l.r.cfg.BuildLease).UnixMilli(), now.UnixMilli()
		fn(&d)
		if _, err := l.r.docs.Put(ctx, l.names.Control(), rebuildDocID, v, d); err == nil {
			l.deadline.Store(d.Deadline)
			return nil
		} else if !errors.Is(err, es.ErrConflict) {
			return err
		}
		if err := wait.Sleep(ctx, wait.Backoff(attempt, 2*time.Millisecond, 100*time.Millisecond)); err != nil {
			return err
		}
	}
}

// renew proves the run still owns the rebuild, for a full lease from now.
func (l *rebuildLease) renew(ctx context.Context) error { return l.update(ctx, func(*rebuildDoc) {}) }

// hold renews the lease until ctx ends, and cancels the run when it was taken over.
func (l *rebuildLease) hold(ctx context.Context, cancel context.CancelCauseFunc) {
	wait.Every(ctx, l.r.cfg.BuildLease/3, func() bool {
		err := l.renew(ctx)
		if errors.Is(err, ErrTakenOver) {
			cancel(err)
		}
		return !errors.Is(err, ErrTakenOver)
	})
}

// bounded returns ctx ending before the lease does: no write of this run into the
// target can land after another run may have taken the rebuild over.
func (l *rebuildLease) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithDeadline(ctx, time.UnixMilli(l.deadline.Load()).Add(-l.r.cfg.BuildLease/6))
}

// release keeps the checkpoint for the next run and lets it resume at once.
func (l *rebuildLease) release(ctx context.Context) error {
	return l.update(ctx, func(d *rebuildDoc) { d.Deadline = 0 })
}

// finish removes the checkpoint of a rebuild that succeeded, retrying while the run's
// own renewals change it first.
func (l *rebuildLease) finish(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		d, v, err := l.r.getRebuild(ctx, l.names)
		if err != nil || !v.Found || d.Owner != l.owner {
			return err
		}
		if err := l.r.docs.Delete(ctx, l.names.Control(), rebuildDocID, v); !errors.Is(err, es.ErrConflict) {
			return err
		}
		if err := wait.Sleep(ctx, wait.Backoff(attempt, 2*time.Millisecond, 100*time.Millisecond)); err != nil {
			return err
		}
	}
}

// discard deletes the checkpoint and the target of a rebuild that is of no more use.
func (l *rebuildLease) discard(ctx context.Context) error {
	d, v, err := l.r.getRebuild(ctx, l.names)
	if err != nil || !v.Found || d.Owner != l.owner {
		return err
	}
	return l.r.dropRebuild(ctx, l.names, d, v)
}
