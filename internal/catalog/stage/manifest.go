package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// Stage states.
const (
	Open       = "open"
	Committing = "committing"
	Committed  = "committed"
	Aborted    = "aborted"
)

// Kind is the kind of stage manifests in the control index.
const Kind = "stage"

// batchInfo is one uploaded batch: the hash of its records, and whether its records
// reached the stage index (a crashed upload leaves Done false until re-uploaded).
type batchInfo struct {
	Hash    string `json:"hash"`
	Records int    `json:"records"`
	Done    bool   `json:"done"`
}

// stageDoc is the manifest of a staged replacement ("stage.<id>" in the control index).
type stageDoc struct {
	Kind          string               `json:"kind"`
	StageID       string               `json:"stageId"`
	State         string               `json:"state"`
	Physical      string               `json:"physicalIndex"`
	StartRevision int64                `json:"startRevision"`
	Batches       map[string]batchInfo `json:"batches"`
	CreatedAt     int64                `json:"createdAt"`
	UpdatedAt     int64                `json:"updatedAt"`
	Deadline      int64                `json:"deadline"` // lease of a commit in progress
	Receipt       *catalog.Receipt     `json:"receipt,omitempty"`
}

// Status is the wire form of a stage (the body of start, upload and abort).
type Status struct {
	StageID       string           `json:"stageId"`
	State         string           `json:"state"`
	StartRevision int64            `json:"startRevision"`
	Batches       int              `json:"batches"`
	Records       int64            `json:"records"`
	CreatedAt     time.Time        `json:"createdAt"`
	UpdatedAt     time.Time        `json:"updatedAt"`
	ExpiresAt     time.Time        `json:"expiresAt"`
	Receipt       *catalog.Receipt `json:"receipt"`
}

// counts returns the finished batches and their records, and the batches still uploading.
func (d stageDoc) counts() (batches int, records int64, uploading []string) {
	for id, b := range d.Batches {
		if b.Done {
			batches++
			records += int64(b.Records)
		} else {
			uploading = append(uploading, id)
		}
	}
	sort.Strings(uploading)
	return batches, records, uploading
}

func (d stageDoc) status(ttl time.Duration) Status {
	b, r, _ := d.counts()
	return Status{
		StageID: d.StageID, State: d.State, StartRevision: d.StartRevision, Batches: b, Records: r,
		CreatedAt: time.UnixMilli(d.CreatedAt).UTC(), UpdatedAt: time.UnixMilli(d.UpdatedAt).UTC(),
		ExpiresAt: time.UnixMilli(d.UpdatedAt).Add(ttl).UTC(), Receipt: d.Receipt,
	}
}

// abandoned reports whether the janitor may remove the stage: an open (or crashed
// committing) stage without activity for ttl, a committed one whose receipt was kept
// for ttl, or an aborted one.
func (d stageDoc) abandoned(now time.Time, ttl time.Duration) bool {
	idle := d.UpdatedAt+ttl.Milliseconds() <= now.UnixMilli()
	switch d.State {
	case Aborted:
		return true
	case Committing:
		return idle && d.Deadline <= now.UnixMilli()
	}
	return idle
}

func stageID(id string) string { return Kind + "." + id }

// get reads the manifest of stage id; ErrNotFound when there is none.
func (s stages) get(ctx context.Context, names esnames.Index, id string) (stageDoc, controlindex.Versioned, error) {
	v, err := s.docs.Get(ctx, names.Control(), stageID(id))
	if err != nil {
		return stageDoc{}, v, err
	}
	if !v.Found {
		return stageDoc{}, v, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	var d stageDoc
	if err := json.Unmarshal(v.Src, &d); err != nil {
		return stageDoc{}, v, fmt.Errorf("decoding stage %q: %w", id, err)
	}
	return d, v, nil
}

// update applies fn to the stage manifest by compare-and-set, retrying on conflicts.
func (s stages) update(ctx context.Context, names esnames.Index, id string, fn func(stageDoc) (stageDoc, error)) (stageDoc, error) {
	for attempt := 0; ; attempt++ {
		d, v, err := s.get(ctx, names, id)
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

// Upload decisions.
type uploadAction int

const (
	uploadWrite uploadAction = iota // claim written: bulk the records, then mark done
	uploadRetry                     // claimed before but never finished: bulk again
	uploadNoop                      // identical batch already uploaded
)

// decideUpload is the pure step of a batch upload on the stage manifest.
func decideUpload(d stageDoc, now time.Time, batchID, hash string, n int) (stageDoc, uploadAction, error) {
	if d.State != Open {
		return d, 0, fmt.Errorf("%w: stage is %s", ErrClosed, d.State)
	}
	if b, ok := d.Batches[batchID]; ok {
		switch {
		case b.Hash != hash:
			return d, 0, fmt.Errorf("%w: batch %q", ErrBatchConflict, batchID)
		case b.Done:
			return d, uploadNoop, nil
		}
		return d, uploadRetry, nil
	}
	batches := make(map[string]batchInfo, len(d.Batches)+1)
	for k, v := range d.Batches {
		batches[k] = v
	}
	batches[batchID] = batchInfo{Hash: hash, Records: n}
	d.Batches = batches
	d.UpdatedAt = now.UnixMilli()
	return d, uploadWrite, nil
}

// Commit decisions.
type commitAction int

const (
	commitStart    commitAction = iota // counts match: claim the commit and swap
	commitDone                         // committed before: repeat the receipt
	commitWait                         // another commit of this stage is running
	commitTakeOver                     // a crashed commit: finish or redo it
)

// decideCommit is the pure step of a commit on the stage manifest.
func decideCommit(d stageDoc, now time.Time, expBatches, expRecords int64) (commitAction, error) {
	switch d.State {
	case Committed:
		return commitDone, nil
	case Aborted:
		return 0, fmt.Errorf("%w: stage is aborted", ErrClosed)
	case Committing:
		if d.Deadline > now.UnixMilli() {
			return commitWait, nil
		}
		return commitTakeOver, nil
	}
	batches, records, uploading := d.counts()
	if len(uploading) > 0 {
		return 0, fmt.Errorf("%w: batch %q is still being uploaded", catalog.ErrBusy, uploading[0])
	}
	if int64(batches) != expBatches || records != expRecords {
		return 0, fmt.Errorf("%w: expected %d batches and %d records, the stage holds %d batches and %d records",
			ErrCountMismatch, expBatches, expRecords, batches, records)
	}
	return commitStart, nil
}
