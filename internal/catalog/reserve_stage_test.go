package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/stage"
)

// TestAStageRefusesAWriteWithAReservationMadeBeforeItStarted: a replica reserves its
// next revision, another starts a stage, the first writes with its reservation: that
// write was accepted after the stage started, so the commit refuses. A stage started
// after such a write commits.
func TestAStageRefusesAWriteWithAReservationMadeBeforeItStarted(t *testing.T) {
	cfg := catalog.Config{ReserveIdle: time.Minute}
	p := catalog.NewReplicaPair(t, "stage", cfg, cfg)
	a, b, tg, trace, ctx := p.A, p.B, p.Target, p.TraceA, context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("first", 1)); err != nil {
		t.Fatal(err)
	}
	stageUpload(t, b, tg, "before", crashRecords("staged", 2))
	trace.Take("")
	r, err := a.Upsert(ctx, tg, crashRecords("second", 1))
	if err != nil {
		t.Fatal(err)
	}
	if sent := trace.Take("/aisle.pair.stage."); sent[0] != "GET control/_doc/revision?realtime=true" || countMatching(sent, "PUT control") != 1 {
		t.Fatalf("the write after the stage's start did not use its reservation: %q", sent)
	}
	a.ReleaseReservations(ctx) // as when idle: the commit's drain waits for it
	if _, err := stage.Commit(ctx, b, tg, "before", 1, 2); !errors.Is(err, stage.ErrOutdated) {
		t.Fatalf("commit after the write %+v: %v, want stage.ErrOutdated", r, err)
	}
	stageUpload(t, b, tg, "after", crashRecords("staged", 2))
	if c, err := stage.Commit(ctx, b, tg, "after", 1, 2); err != nil || c.AcceptedRevision <= r.AcceptedRevision {
		t.Fatalf("commit of a stage started after the write %+v: %+v %v", r, c, err)
	}
}
