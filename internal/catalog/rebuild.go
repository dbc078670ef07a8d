package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// A settings rebuild copies the catalog into a new physical index made from new
// settings, while writes go on, and swaps it in without losing any:
//
//  1. Note mark, the indexedRevision: every write at or below it is visible in the
//     source index. Copy every document in pages (search_after on objectID), writing
//     each one's version into it explicitly (a replacement's records carry none and take
//     State.Bases[source]), so versions survive the move. After each page the
//     checkpoint (rebuildstate.go) records the page's cursor.
//  2. Catch up: copy the documents whose version is above mark, then raise mark; a few
//     rounds shrink what is left for step 3.
//  3. Fence (no new revisions) and wait for pending writes; copy what is above mark one
//     last time, delete the documents that were deleted meanwhile (when the counts
//     differ), prove the run still owns the checkpoint, and move the alias in one call,
//     still fenced; then unfence. A write waits for the fence (bounded) and then goes to
//     the new index.
//
// A run that stops before the end (a crash, a shutdown, an error) leaves its checkpoint:
// the next run resumes the copy after the cursor, catches up above the original mark
// and finishes. If the alias moved meanwhile (a replacement), the copy is stale:
// ErrSourceMoved, and the target is dropped.

// ErrSourceMoved: a replacement moved the alias during the rebuild; start over.
var ErrSourceMoved = errors.New("the catalog was replaced during the rebuild")

// RebuildPage is the number of documents per copy page.
const RebuildPage = 1000

// catchUpRounds bound the catch-up before the fence.
const catchUpRounds = 3

// Progress is how far a rebuild's copy is.
type Progress struct {
	Done, Total int64
	// Target is the physical index being filled.
	Target string
	// Started is when the rebuild started, in its first run.
	Started time.Time
	// Resumed says this run took over a rebuild an earlier run had begun.
	Resumed bool
}

// Rebuild moves the catalog of t into a physical index built from t.Settings and
// returns its name: it resumes the rebuild an earlier run left for the same settings,
// or starts one. progress is called once the rebuild is claimed and after every page.
// Cancel ctx with ErrRebuildAbandoned to drop the rebuild rather than keep it for a
// resume.
func (s *Service) Rebuild(ctx context.Context, t Target, progress func(Progress)) (string, error) {
	want, err := indexmapping.Hash(t.Settings)
	if err != nil {
		return "", fmt.Errorf("hashing the settings of %s: %w", t.Names.Alias(), err)
	}
	run, err := s.claimRebuild(ctx, t, want)
	if errors.Is(err, errAlreadyBuilt) {
		return s.aliasTarget(ctx, t.Names)
	}
	if err != nil {
		return "", err
	}
	err = s.drive(ctx, t.Names, run, progress)
	s.endRebuild(context.WithoutCancel(ctx), run, err)
	return run.doc.Target, err
}

// drive runs the claimed rebuild while holding its lease; when it returns, no renewal
// of the lease can follow.
func (s *Service) drive(ctx context.Context, names esnames.Index, run *rebuildRun, progress func(Progress)) error {
	runCtx, cancel := context.WithCancelCause(ctx)
	held := make(chan struct{})
	go func() {
		defer close(held)
		run.lease.hold(runCtx, cancel)
	}()
	err := s.rebuildInto(runCtx, names, run, progress)
	if cause := context.Cause(runCtx); err != nil && cause != nil {
		err = errors.Join(err, cause)
	}
	cancel(nil)
	<-held
	return err
}

// endRebuild leaves the checkpoint as the outcome requires: kept for a resume after a
// failure or a shutdown, dropped with its target when stale or no longer wanted, left
// alone when another run owns it.
func (s *Service) endRebuild(ctx context.Context, run *rebuildRun, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	switch {
	case err == nil, errors.Is(err, ErrRebuildTakenOver):
	case errors.Is(err, ErrSourceMoved), errors.Is(err, ErrRebuildAbandoned):
		_ = run.lease.discard(ctx)
	default:
		_ = run.lease.release(ctx)
	}
}

func (s *Service) rebuildInto(ctx context.Context, names esnames.Index, run *rebuildRun, progress func(Progress)) error {
	st, _, err := s.loadState(ctx, names)
	if err != nil {
		return err
	}
	d := run.doc
	c := &copier{s: s, source: d.Source, target: d.Target, base: max(st.Bases[d.Source], 1), lease: run.lease,
		done: d.Done, total: d.Total, started: time.UnixMilli(d.CreatedAt), resumed: run.resumed, progress: progress}
	c.report()
	if err := c.copy(ctx, nil, d.Cursor, c.checkpoint); err != nil {
		return err
	}
	mark := d.Mark
	for round := 0; round < catchUpRounds; round++ {
		st, _, err := s.loadState(ctx, names)
		if err != nil {
			return err
		}
		next := st.Prune(s.cfg.Now()).Indexed()
		if err := c.copy(ctx, above(mark), nil, nil); err != nil {
			return err
		}
		mark = next
	}
	return s.finishRebuild(ctx, names, c, mark)
}

// finishRebuild is step 3: under the fence, the last catch-up, deletes and the swap.
func (s *Service) finishRebuild(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	owner := fenceOwner(c.target)
	if err := s.fence(ctx, names, owner); err != nil {
		return err
	}
	st, _, err := s.loadState(ctx, names)
	if err == nil {
		err = s.syncFenced(ctx, names, c, mark)
	}
	if err == nil {
		// The last proof of ownership: the alias moves within this renewed lease.
		err = c.lease.renew(ctx)
	}
	var lease Lease
	if err == nil {
		_, err = s.update(ctx, names, func(cur State) (State, error) {
			if cur.Revision != st.Revision {
				return cur, fmt.Errorf("%w: a write got past the fence", ErrSwapBusy)
			}
			next, l, err := cur.BeginSwap(s.cfg.Now(), owner, c.target, s.cfg.WriteLease)
			lease = l
			return next, err
		})
	}
	if err != nil {
		s.unfence(context.WithoutCancel(ctx), names, owner, 0)
		return err
	}
	old, err := s.moveAliasBounded(ctx, names, c)
	if err != nil {
		s.unfence(context.WithoutCancel(ctx), names, owner, lease.Rev)
		return err
	}
	// The alias has moved: what is left must run to the end.
	ctx = context.WithoutCancel(ctx)
	if _, err := s.update(ctx, names, func(st State) (State, error) {
		next, err := st.Complete(s.cfg.Now(), lease.Rev, true)
		return next.ClearFence(owner).DropBase(old), err
	}); err != nil {
		return fmt.Errorf("completing the rebuild of %s: %w", names.Alias(), err)
	}
	if old != "" && old != c.target {
		s.deleteIndex(ctx, old)
	}
	if err := c.lease.finish(ctx); err != nil {
		return fmt.Errorf("removing the rebuild checkpoint of %s: %w", names.Alias(), err)
	}
	return nil
}

// moveAliasBounded moves the alias within the run's lease.
func (s *Service) moveAliasBounded(ctx context.Context, names esnames.Index, c *copier) (string, error) {
	bctx, cancel := c.lease.bounded(ctx)
	defer cancel()
	return s.moveAlias(bctx, names, c.target)
}

// syncFenced brings the target level with the source while no write can happen.
func (s *Service) syncFenced(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	current, err := s.aliasTarget(ctx, names)
	if err != nil {
		return err
	}
	if current != c.source {
		return ErrSourceMoved
	}
	if err := c.copy(ctx, above(mark), nil, nil); err != nil {
		return err
	}
	if err := s.refresh(ctx, c.target); err != nil {
		return err
	}
	inSource, err := s.count(ctx, c.source)
	if err != nil {
		return err
	}
	inTarget, err := s.count(ctx, c.target)
	if err != nil {
		return err
	}
	if inSource != inTarget {
		if err := c.dropDeleted(ctx); err != nil {
			return err
		}
	}
	return s.refresh(ctx, c.target)
}

func above(mark int64) map[string]any {
	return map[string]any{"range": map[string]any{VersionField: map[string]any{"gt": mark}}}
}
