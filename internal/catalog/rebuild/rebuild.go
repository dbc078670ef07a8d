// Package rebuild holds settings rebuilds: a rebuild copies the catalog into a new physical index made from new
// settings, while writes go on, and swaps it in without losing any:
//
//  1. Note mark, the indexedRevision: every write at or below it is visible in the
//     source index. Copy every document in pages (search_after on objectID), writing
//     each one's version into it explicitly (a replacement's records carry none and take
//     catalog.State.Bases[source]), so versions survive the move. After each page the
//     checkpoint (checkpoint.go) records the page's cursor.
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
package rebuild

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// ErrSourceMoved: a replacement moved the alias during the rebuild; start over.
var ErrSourceMoved = errors.New("the catalog was replaced during the rebuild")

// PageSize is the number of documents per copy page.
const PageSize = 1000

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

// Run moves the catalog of t into a physical index built from t.Settings and returns
// its name: it resumes the rebuild an earlier run left for the same settings, or starts
// one. progress is called once the rebuild is claimed and after every page. Cancel ctx
// with ErrAbandoned to drop the rebuild rather than keep it for a resume.
func Run(ctx context.Context, c *catalog.Service, t catalog.Target, progress func(Progress)) (string, error) {
	return on(c).run(ctx, t, progress)
}

// rebuilder runs rebuilds on a catalog service.
type rebuilder struct {
	cat  *catalog.Service
	cfg  catalog.Config
	docs *controlindex.Store
}

func on(c *catalog.Service) rebuilder {
	return rebuilder{cat: c, cfg: c.Config(), docs: c.Docs()}
}

func (r rebuilder) run(ctx context.Context, t catalog.Target, progress func(Progress)) (string, error) {
	want, err := indexmapping.Hash(t.Settings)
	if err != nil {
		return "", fmt.Errorf("hashing the settings of %s: %w", t.Names.Alias(), err)
	}
	run, err := r.claimRebuild(ctx, t, want)
	if errors.Is(err, errAlreadyBuilt) {
		return r.cat.AliasTarget(ctx, t.Names)
	}
	if err != nil {
		return "", err
	}
	err = r.drive(ctx, t, run, progress)
	r.endRebuild(context.WithoutCancel(ctx), run, err)
	return run.doc.Target, err
}

// drive runs the claimed rebuild while holding its lease; when it returns, no renewal
// of the lease can follow.
func (r rebuilder) drive(ctx context.Context, t catalog.Target, run *rebuildRun, progress func(Progress)) error {
	runCtx, cancel := context.WithCancelCause(ctx)
	held := make(chan struct{})
	go func() {
		defer close(held)
		run.lease.hold(runCtx, cancel)
	}()
	err := r.rebuildInto(runCtx, t, run, progress)
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
func (r rebuilder) endRebuild(ctx context.Context, run *rebuildRun, err error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	switch {
	case err == nil, errors.Is(err, ErrTakenOver):
	case errors.Is(err, ErrSourceMoved), errors.Is(err, ErrAbandoned):
		_ = run.lease.discard(ctx)
	default:
		_ = run.lease.release(ctx)
	}
}

func (r rebuilder) rebuildInto(ctx context.Context, t catalog.Target, run *rebuildRun, progress func(Progress)) error {
	names := t.Names
	st, err := r.cat.ReadState(ctx, names)
	if err != nil {
		return err
	}
	d := run.doc
	c := &copier{r: r, source: d.Source, target: d.Target, vectors: vectorsOf(t.Settings), base: max(st.Bases[d.Source], 1), lease: run.lease,
		done: d.Done, total: d.Total, started: time.UnixMilli(d.CreatedAt), resumed: run.resumed, progress: progress}
	c.report()
	if err := c.copy(ctx, nil, d.Cursor, c.checkpoint); err != nil {
		return err
	}
	mark := d.Mark
	for round := 0; round < catchUpRounds; round++ {
		st, err := r.cat.ReadState(ctx, names)
		if err != nil {
			return err
		}
		next := st.Prune(r.cfg.Now()).Indexed()
		if err := c.copy(ctx, above(mark), nil, nil); err != nil {
			return err
		}
		mark = next
	}
	return r.finishRebuild(ctx, names, c, mark)
}

// finishRebuild is step 3: under the fence, the last catch-up, deletes and the swap.
func (r rebuilder) finishRebuild(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	owner := fenceOwner(c.target)
	if err := r.cat.Fence(ctx, names, owner); err != nil {
		return err
	}
	lease, err := r.beginFenced(ctx, names, c, mark, owner)
	if err != nil {
		r.cat.Unfence(context.WithoutCancel(ctx), names, owner, 0)
		return err
	}
	old, err := r.moveAliasBounded(ctx, names, c)
	if err != nil {
		r.cat.Unfence(context.WithoutCancel(ctx), names, owner, lease.Rev)
		return err
	}
	// The alias has moved: what is left must run to the end.
	ctx = context.WithoutCancel(ctx)
	if _, err := r.cat.EndSwap(ctx, names, owner, lease.Rev, old); err != nil {
		return fmt.Errorf("completing the rebuild of %s: %w", names.Alias(), err)
	}
	if old != "" && old != c.target {
		r.cat.DeleteIndex(ctx, old)
	}
	if err := c.lease.finish(ctx); err != nil {
		return fmt.Errorf("removing the rebuild checkpoint of %s: %w", names.Alias(), err)
	}
	return nil
}

// beginFenced brings the target level with the source under owner's fence, proves the
// run still owns the rebuild and allocates the swap's revision, unless a write got past
// the fence meanwhile.
func (r rebuilder) beginFenced(ctx context.Context, names esnames.Index, c *copier, mark int64, owner string) (catalog.Lease, error) {
	st, err := r.cat.ReadState(ctx, names)
	if err == nil {
		err = r.syncFenced(ctx, names, c, mark)
	}
	if err == nil {
		// The last proof of ownership: the alias moves within this renewed lease.
		err = c.lease.renew(ctx)
	}
	if err != nil {
		return catalog.Lease{}, err
	}
	return r.cat.BeginSwap(ctx, names, c.target, owner, func(cur catalog.State) error {
		if cur.Revision != st.Revision {
			return fmt.Errorf("%w: a write got past the fence", catalog.ErrSwapBusy)
		}
		return nil
	})
}

// moveAliasBounded moves the alias within the run's lease.
func (r rebuilder) moveAliasBounded(ctx context.Context, names esnames.Index, c *copier) (string, error) {
	bctx, cancel := c.lease.bounded(ctx)
	defer cancel()
	return r.cat.MoveAlias(bctx, names, c.target)
}

// syncFenced brings the target level with the source while no write can happen.
func (r rebuilder) syncFenced(ctx context.Context, names esnames.Index, c *copier, mark int64) error {
	current, err := r.cat.AliasTarget(ctx, names)
	if err != nil {
		return err
	}
	if current != c.source {
		return ErrSourceMoved
	}
	if err := c.copy(ctx, above(mark), nil, nil); err != nil {
		return err
	}
	if err := r.cat.Refresh(ctx, c.target); err != nil {
		return err
	}
	inSource, err := r.cat.Count(ctx, c.source)
	if err != nil {
		return err
	}
	inTarget, err := r.cat.Count(ctx, c.target)
	if err != nil {
		return err
	}
	if inSource != inTarget {
		if err := c.dropDeleted(ctx); err != nil {
			return err
		}
	}
	return r.cat.Refresh(ctx, c.target)
}

func above(mark int64) map[string]any {
	return map[string]any{"range": map[string]any{indexmapping.VersionField: map[string]any{"gt": mark}}}
}
