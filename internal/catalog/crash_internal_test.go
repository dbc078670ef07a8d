package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// errCrash stops a swap at a crash point: nothing after it runs, as after kill -9 (the
// commit path has no deferred work that a panic would run and a kill would not).
var errCrash = errors.New("crash")

// TestCommitCrashRecovery stops a staged commit after each step of its swap and checks
// that a retry on another replica, later, finishes the commit with a sound revision
// document (no fence, nothing pending, the commit counted as a write), and that the
// janitor removes the physical index left behind.
func TestCommitCrashRecovery(t *testing.T) {
	client := startBackend(t)
	for i, point := range []string{"fenced", "swap-begun", "alias-moved", "swap-completed"} {
		t.Run(point, func(t *testing.T) {
			ctx := context.Background()
			tg := newTarget(t, client, "crash", fmt.Sprintf("crash%d", i), searchv1alpha1.IndexSettings{SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}}})
			first := New(client, Config{})
			// The retry runs later, when the crashed commit's leases have run out.
			later := New(client, Config{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
			if _, err := first.Upsert(ctx, tg, crashRecords("old", 5)); err != nil {
				t.Fatal(err)
			}
			stageUpload(t, first, tg, "s", crashRecords("new", 7))
			stageUpload(t, first, tg, "other", crashRecords("other", 1))

			crashAt(t, point, func() { _, _ = first.CommitStage(ctx, tg, "s", 1, 7) })
			if n, _ := first.count(ctx, tg.Names.Alias()); n != 5 && n != 7 {
				t.Fatalf("after the crash readers see %d records, want 5 or 7", n)
			}

			r, err := later.CommitStage(ctx, tg, "s", 1, 7)
			if err != nil || r.RecordCount != 7 {
				t.Fatalf("retried commit: %+v %v", r, err)
			}
			checkSettled(t, later, tg, r)
			if _, err := later.CommitStage(ctx, tg, "other", 1, 1); !errors.Is(err, ErrStageOutdated) {
				t.Fatalf("a stage started before the crashed commit committed over it: %v", err)
			}
			if _, err := later.AbortStage(ctx, tg, "other"); err != nil {
				t.Fatal(err)
			}
			hash, _ := indexmapping.Hash(tg.Settings)
			if err := later.Sweep(ctx, tg.Names, hash); err != nil {
				t.Fatal(err)
			}
			if left, _ := later.idx.List(ctx, tg.Names.PhysicalPattern()); len(left) != 1 {
				t.Fatalf("after the janitor %d physical indices are left, want 1", len(left))
			}
		})
	}
}

// crashAt runs fn with the swap stopping at point.
func crashAt(t *testing.T, point string, fn func()) {
	crashPoint = func(step string) {
		if step == point {
			panic(errCrash)
		}
	}
	defer func() {
		crashPoint = func(string) {}
		if r, _ := recover().(error); !errors.Is(r, errCrash) {
			t.Fatalf("the commit did not reach %s: %v", point, r)
		}
	}()
	fn()
}

// checkSettled checks the revision document and the records after the retried commit.
func checkSettled(t *testing.T, svc *Service, tg Target, r Receipt) {
	ctx := context.Background()
	st, _, err := svc.loadState(ctx, tg.Names)
	if err != nil {
		t.Fatal(err)
	}
	st = st.Prune(svc.cfg.Now())
	if st.Fence != nil || len(st.Pending) > 0 || st.LastWrite < r.AcceptedRevision || r.IndexedRevision != st.Revision {
		t.Fatalf("state after the retry: %+v, receipt %+v", st, r)
	}
	got, err := svc.Get(ctx, tg, "new-3")
	if err != nil || got.Version != r.AcceptedRevision {
		t.Fatalf("a committed record: %+v %v, want version %d", got, err, r.AcceptedRevision)
	}
}

func stageUpload(t *testing.T, svc *Service, tg Target, id string, recs []Record) {
	ctx := context.Background()
	if _, _, err := svc.StartStage(ctx, tg, id); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.UploadBatch(ctx, tg, id, "b1", recs, "h"); err != nil {
		t.Fatal(err)
	}
}

func crashRecords(prefix string, n int) []Record {
	out := make([]Record, n)
	for i := range out {
		raw, _ := json.Marshal(map[string]any{"objectID": fmt.Sprintf("%s-%d", prefix, i), "name": prefix})
		out[i] = Record{ID: fmt.Sprintf("%s-%d", prefix, i), Raw: raw}
	}
	return out
}
