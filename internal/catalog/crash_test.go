package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/janitor"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// The package's test helpers, exported to these external tests by export_test.go.
var (
	startBackend  = catalog.StartBackend
	newTarget     = catalog.NewTarget
	crashRecords  = catalog.CrashRecords
	countMatching = catalog.CountMatching
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
			first := catalog.New(client, catalog.Config{})
			// The retry runs later, when the crashed commit's leases have run out.
			later := catalog.New(client, catalog.Config{Now: func() time.Time { return time.Now().Add(2 * time.Minute) }})
			if _, err := first.Upsert(ctx, tg, crashRecords("old", 5)); err != nil {
				t.Fatal(err)
			}
			stageUpload(t, first, tg, "s", crashRecords("new", 7))
			stageUpload(t, first, tg, "other", crashRecords("other", 1))

			crashAt(t, point, func() { _, _ = stage.Commit(ctx, first, tg, "s", 1, 7) })
			if n, _ := first.Count(ctx, tg.Names.Alias()); n != 5 && n != 7 {
				t.Fatalf("after the crash readers see %d records, want 5 or 7", n)
			}

			r, err := stage.Commit(ctx, later, tg, "s", 1, 7)
			if err != nil || r.RecordCount != 7 {
				t.Fatalf("retried commit: %+v %v", r, err)
			}
			checkSettled(t, later, tg, r)
			if _, err := stage.Commit(ctx, later, tg, "other", 1, 1); !errors.Is(err, stage.ErrOutdated) {
				t.Fatalf("a stage started before the crashed commit committed over it: %v", err)
			}
			if _, err := stage.Abort(ctx, later, tg, "other"); err != nil {
				t.Fatal(err)
			}
			hash, _ := indexmapping.Hash(tg.Settings)
			if err := janitor.Sweep(ctx, later, tg.Names, hash); err != nil {
				t.Fatal(err)
			}
			if left, _ := later.Indices().List(ctx, tg.Names.PhysicalPattern()); len(left) != 1 {
				t.Fatalf("after the janitor %d physical indices are left, want 1", len(left))
			}
		})
	}
}

// crashAt runs fn with the swap stopping at point.
func crashAt(t *testing.T, point string, fn func()) {
	catalog.SetCrashPoint(func(step string) {
		if step == point {
			panic(errCrash)
		}
	})
	defer func() {
		catalog.SetCrashPoint(func(string) {})
		if r, _ := recover().(error); !errors.Is(r, errCrash) {
			t.Fatalf("the commit did not reach %s: %v", point, r)
		}
	}()
	fn()
}

// checkSettled checks the revision document and the records after the retried commit.
func checkSettled(t *testing.T, svc *catalog.Service, tg catalog.Target, r catalog.Receipt) {
	ctx := context.Background()
	st, err := svc.ReadState(ctx, tg.Names)
	if err != nil {
		t.Fatal(err)
	}
	st = st.Prune(svc.Config().Now())
	if st.Fence != nil || len(st.Pending) > 0 || st.LastWrite < r.AcceptedRevision || r.IndexedRevision != st.Revision {
		t.Fatalf("state after the retry: %+v, receipt %+v", st, r)
	}
	got, err := svc.Get(ctx, tg, "new-3")
	if err != nil || got.Version != r.AcceptedRevision {
		t.Fatalf("a committed record: %+v %v, want version %d", got, err, r.AcceptedRevision)
	}
}

func stageUpload(t *testing.T, svc *catalog.Service, tg catalog.Target, id string, recs []catalog.Record) {
	ctx := context.Background()
	if _, _, err := stage.Start(ctx, svc, tg, id); err != nil {
		t.Fatal(err)
	}
	if _, err := stage.Upload(ctx, svc, tg, id, "b1", recs, "h"); err != nil {
		t.Fatal(err)
	}
}
