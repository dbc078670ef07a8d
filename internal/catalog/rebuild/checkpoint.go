package rebuild

import (
	"errors"
	"time"
)

// A rebuild's checkpoint ("rebuild" in the control index, one per SearchIndex) is its
// build lease and its progress in one document, changed only by compare-and-set:
//
//   - The run that owns it (Owner) renews Deadline while it works and records, after
//     every copied page, the search_after cursor of that page and the documents done.
//     Every write it makes into the target ends before its lease does, and it proves it
//     still owns the checkpoint (a renewal) under the fence before moving the alias.
//   - Another run takes it over only once Deadline has passed, by a compare-and-set
//     that names itself Owner; from then on the old run's renewals fail and it stops
//     (ErrTakenOver), touching neither the target nor the checkpoint. So two
//     runs never drive one rebuild, even from two operator processes.
//   - A run that stops on an error or a shutdown sets Deadline to 0: the next run, in
//     this process or another, resumes at once instead of waiting the lease out.
//
// Why a resumed rebuild loses nothing (deletes included). Mark is the indexedRevision
// noted before the first page: every write at or below it was searchable in Source
// then. The cursor is written only after its page's _bulk succeeded, so every document
// whose objectID sorts at or before it reached the target, as it was when read; pages
// copied after the last checkpoint are simply copied again. The resumed copy reads the
// rest of Source live, in objectID order, so a document that existed at the start and
// was not written since (version at or below Mark) is copied with its version. A
// document written after the start, before the crash, while the operator was down or
// since, has a version above Mark: the catch-up copies everything above the original
// Mark, not above a mark the dead run may have raised, so nothing written meanwhile is
// skipped. Under the fence, with pending writes drained, a last catch-up makes the
// target hold every document of Source at its version, so the target is a superset of
// Source; documents deleted at any time (before or after the crash) are then exactly
// the extra ones, and the count comparison and the id merge remove them. Source must
// still be behind the alias: a replacement in between makes the checkpoint stale.

// Kind is the kind of rebuild checkpoints in the control index.
const Kind = "rebuild"

// rebuildDocID is the id of the checkpoint: one rebuild at a time per SearchIndex.
const rebuildDocID = Kind

var (
	// ErrTakenOver: another run took over the rebuild after this run's lease
	// had lapsed; this run stops and leaves the target and the checkpoint to it.
	ErrTakenOver = errors.New("the rebuild was taken over by another run")
	// ErrAbandoned is the cause to cancel a rebuild's context with when its
	// settings are no longer wanted: its target is deleted instead of kept for a resume.
	ErrAbandoned = errors.New("the rebuild is no longer wanted")
)

// rebuildDoc is the checkpoint of a rebuild.
type rebuildDoc struct {
	Kind         string `json:"kind"`
	SettingsHash string `json:"settingsHash"`
	// Source is the physical index behind the alias when the rebuild started.
	Source string `json:"source"`
	// Target is the physical index being filled.
	Target string `json:"target"`
	// Mark is the indexedRevision noted before the first page.
	Mark int64 `json:"mark"`
	// Cursor is the search_after of the last page copied (none yet: nil).
	Cursor []any `json:"cursor,omitempty"`
	Done   int64 `json:"done"`
	Total  int64 `json:"total"`
	// Owner names the run driving the rebuild; Deadline ends its lease (0: released).
	Owner     string `json:"owner"`
	Deadline  int64  `json:"deadline"`
	CreatedAt int64  `json:"createdAt"`
	UpdatedAt int64  `json:"updatedAt"`
}

// rebuildAction is what to do with the checkpoint found.
type rebuildAction int

const (
	rebuildFresh   rebuildAction = iota // no checkpoint: start a rebuild
	rebuildResume                       // take the lapsed checkpoint over and continue it
	rebuildRestart                      // stale: delete it and its target, then start afresh
	rebuildWait                         // another run's lease is live
	rebuildSettle                       // its target is behind the alias: tidy up the finished swap
)

// rebuildWorld is what the decision needs besides the checkpoint.
type rebuildWorld struct {
	found        bool   // a checkpoint exists
	alias        string // the physical index behind the alias now
	targetExists bool   // the checkpoint's target still exists
	want         string // the settings hash wanted now
	now          time.Time
}

// decideRebuild is the pure step of taking up a rebuild. A live lease is never taken
// over, whatever it rebuilds: its owner may still be writing.
func decideRebuild(d rebuildDoc, w rebuildWorld) rebuildAction {
	switch {
	case !w.found:
		return rebuildFresh
	case d.Deadline > w.now.UnixMilli():
		return rebuildWait
	case d.Target == w.alias:
		return rebuildSettle
	case d.SettingsHash != w.want || !w.targetExists || d.Source != w.alias:
		return rebuildRestart
	}
	return rebuildResume
}

// fenceOwner names the fence of the swap that ends a rebuild after its target, so
// that a run resuming a rebuild whose swap crashed renews the dead fence rather than
// waiting for it to expire.
func fenceOwner(target string) string { return Kind + "." + target }
