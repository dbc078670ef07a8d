package stage

import (
	"errors"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
)

func TestDecideCommit(t *testing.T) {
	now := time.UnixMilli(5000)
	open := stageDoc{State: Open, Batches: map[string]batchInfo{"a": {Hash: "h", Records: 3, Done: true}}}
	cases := []struct {
		name    string
		doc     stageDoc
		b, r    int64
		want    commitAction
		wantErr error
	}{
		{"counts match", open, 1, 3, commitStart, nil},
		{"counts differ", open, 2, 3, 0, ErrCountMismatch},
		{"committed", stageDoc{State: Committed}, 9, 9, commitDone, nil},
		{"aborted", stageDoc{State: Aborted}, 1, 3, 0, ErrClosed},
		{"running commit", stageDoc{State: Committing, Deadline: 6000}, 1, 3, commitWait, nil},
		{"crashed commit", stageDoc{State: Committing, Deadline: 4000}, 1, 3, commitTakeOver, nil},
		{"batch uploading", stageDoc{State: Open, Batches: map[string]batchInfo{"a": {Hash: "h"}}}, 0, 0, 0, catalog.ErrBusy},
	}
	for _, c := range cases {
		got, err := decideCommit(c.doc, now, c.b, c.r)
		if !errors.Is(err, c.wantErr) || (c.wantErr == nil && got != c.want) {
			t.Errorf("%s: got %v, %v; want %v, %v", c.name, got, err, c.want, c.wantErr)
		}
	}
}
