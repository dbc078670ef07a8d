package catalog

import (
	"context"
	"testing"
	"time"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// TestAReservationIsUsedOnlyWhileNobodyAllocatedSince: after another replica's write, a
// replica's next write does not take the revision it reserved before that write, so
// revisions rise in the order the writes happen. acceptedRevision leaves unused
// reservations out; indexedRevision waits for them until they are released.
func TestAReservationIsUsedOnlyWhileNobodyAllocatedSince(t *testing.T) {
	url := startEngine(t)
	cfg := Config{ReserveIdle: 100 * time.Millisecond}
	a, b := New(tracedClient(t, url, &tracer{}), cfg), New(tracedClient(t, url, &tracer{}), cfg)
	tg := newTarget(t, a.es, "reserve", "order", searchv1alpha1.IndexSettings{})
	ctx := context.Background()
	var last int64
	for i, svc := range []*Service{a, b, a, a, b} {
		r, err := svc.Upsert(ctx, tg, crashRecords("r", 1))
		if err != nil {
			t.Fatal(err)
		}
		if r.AcceptedRevision <= last || r.IndexedRevision > r.AcceptedRevision {
			t.Fatalf("write %d: receipt %+v after revision %d", i, r, last)
		}
		last = r.AcceptedRevision
		if got, err := a.Indexing(ctx, tg); err != nil || got.AcceptedRevision != last {
			t.Fatalf("after write %d (revision %d) GET /indexing answers %+v %v", i, last, got, err)
		}
	}
	drained(t, a, tg)
	if got, err := b.Indexing(ctx, tg); err != nil || got.AcceptedRevision != last || got.IndexedRevision != last {
		t.Fatalf("once the reservations are released GET /indexing answers %+v %v, want revision %d", got, err, last)
	}
}

// TestASwapDrainsAnIdleReservation: a replica holding a reservation does not hold up
// another replica's catalog replacement for longer than its idle time, and its next
// write goes to the new catalog with a revision above the replacement's.
func TestASwapDrainsAnIdleReservation(t *testing.T) {
	url := startEngine(t)
	a := New(tracedClient(t, url, &tracer{}), Config{ReserveIdle: 200 * time.Millisecond})
	b := New(tracedClient(t, url, &tracer{}), Config{})
	tg := newTarget(t, a.es, "reserve", "swap", searchv1alpha1.IndexSettings{})
	ctx := context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("before", 1)); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	replaced, err := b.Replace(ctx, tg, crashRecords("new", 3))
	if err != nil || time.Since(started) > 5*time.Second {
		t.Fatalf("replacement: %+v %v after %v", replaced, err, time.Since(started))
	}
	after, err := a.Upsert(ctx, tg, crashRecords("after", 1))
	if err != nil || after.AcceptedRevision <= replaced.AcceptedRevision || after.RecordCount != 4 {
		t.Fatalf("write after the replacement %+v: %+v %v", replaced, after, err)
	}
}
