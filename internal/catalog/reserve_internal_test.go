package catalog

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestAReservationIsUsedOnlyWhileNobodyAllocatedSince: after another replica's write, a
// replica's next write does not take the revision it reserved before that write, so
// revisions rise in the order the writes happen. acceptedRevision leaves unused
// reservations out; indexedRevision waits for them until they are released.
func TestAReservationIsUsedOnlyWhileNobodyAllocatedSince(t *testing.T) {
	cfg := Config{ReserveIdle: 100 * time.Millisecond}
	p := newReplicaPair(t, "order", cfg, cfg)
	a, b, tg, ctx := p.a, p.b, p.tg, context.Background()
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
	p := newReplicaPair(t, "swap", Config{ReserveIdle: 200 * time.Millisecond}, Config{})
	a, b, tg, ctx := p.a, p.b, p.tg, context.Background()
	if _, err := a.Upsert(ctx, tg, crashRecords("before", 1)); err != nil {
		t.Fatal(err)
	}
	// Without the drain the replacement would wait out the reservation's write lease
	// (DefaultWriteLease, 30 s); half of it tells the two apart on any machine.
	started := time.Now()
	replaced, err := b.Replace(ctx, tg, crashRecords("new", 3))
	if err != nil || time.Since(started) > DefaultWriteLease/2 {
		t.Fatalf("replacement: %+v %v after %v", replaced, err, time.Since(started))
	}
	after, err := a.Upsert(ctx, tg, crashRecords("after", 1))
	if err != nil || after.AcceptedRevision <= replaced.AcceptedRevision || after.RecordCount != 4 {
		t.Fatalf("write after the replacement %+v: %+v %v", replaced, after, err)
	}
}

// TestReceiptCountsAreExact: whether a receipt's count comes from the write's own answer
// (a replica writing alone) or from a _count (after another replica's write, or beside
// a concurrent one), it is the number of records right after the write.
func TestReceiptCountsAreExact(t *testing.T) {
	cfg := Config{ReserveIdle: time.Minute}
	p := newReplicaPair(t, "counts", cfg, cfg)
	a, b, tg, ctx := p.a, p.b, p.tg, context.Background()
	version := func(id string) int64 {
		r, err := a.Get(ctx, tg, id)
		if err != nil {
			t.Fatal(err)
		}
		return r.Version
	}
	writes := []struct {
		name  string
		write func() (Receipt, error)
	}{
		{"three new records", func() (Receipt, error) { return a.Upsert(ctx, tg, crashRecords("x", 3)) }},
		{"two of them again, one new", func() (Receipt, error) { return a.Upsert(ctx, tg, crashRecords("x", 4)[1:]) }},
		{"a delete", func() (Receipt, error) { return a.Delete(ctx, tg, "x-0") }},
		{"a delete of nothing", func() (Receipt, error) { return a.Delete(ctx, tg, "x-0") }},
		{"a conditional create", func() (Receipt, error) { return a.ConditionalWrite(ctx, tg, conditional(t, "c", 0, ""), "h") }},
		{"another replica's write", func() (Receipt, error) { return b.Upsert(ctx, tg, crashRecords("y", 2)) }},
		{"a write after it", func() (Receipt, error) { return a.Upsert(ctx, tg, crashRecords("z", 1)) }},
		{"a conditional update", func() (Receipt, error) {
			return a.ConditionalWrite(ctx, tg, conditional(t, "c", version("c"), ""), "h2")
		}},
		{"a conditional delete", func() (Receipt, error) {
			return a.ConditionalWrite(ctx, tg, Conditional{Operation: OpDelete, ObjectID: "y-0", ExpectedVersion: version("y-0")}, "h3")
		}},
		{"a write after a conflict", func() (Receipt, error) {
			if _, err := a.ConditionalWrite(ctx, tg, conditional(t, "c", 1, ""), "h4"); err != ErrVersionConflict {
				t.Fatalf("stale conditional write: %v", err)
			}
			return a.Upsert(ctx, tg, crashRecords("w", 1))
		}},
	}
	for _, w := range writes {
		r, err := w.write()
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if n, err := a.Count(ctx, tg.Names.Alias()); err != nil || r.RecordCount != n {
			t.Fatalf("%s: receipt counts %d records, the index holds %d (%v)", w.name, r.RecordCount, n, err)
		}
	}
}

// TestThePlanReadsTheKnownCount: a replica's next write checks the plan against the
// count its last write's receipt took, also while another replica holds a reservation
// (then the receipt still counts, beside the completion), and a refusal leaves the
// revisions as they were and the reservation usable.
func TestThePlanReadsTheKnownCount(t *testing.T) {
	cfg := Config{ReserveIdle: time.Minute}
	p := newReplicaPair(t, "plan", cfg, cfg)
	a, b, tg, trace, ctx := p.a, p.b, p.tg, p.traceA, context.Background()
	if _, err := b.Upsert(ctx, tg, crashRecords("b", 1)); err != nil { // b reserves
		t.Fatal(err)
	}
	if _, err := a.Upsert(ctx, tg, crashRecords("a", 2)); err != nil { // a reserves too
		t.Fatal(err)
	}
	tg.MaxRecords = 4
	trace.Take("")
	r, err := a.Upsert(ctx, tg, crashRecords("c", 1))
	if err != nil || r.RecordCount != 4 {
		t.Fatalf("a write up to the limit: %+v %v", r, err)
	}
	const prefix = "/aisle.pair.plan."
	want := []string{"GET control/_doc/revision?realtime=true", "POST records/_bulk?refresh=wait_for&require_alias=true"}
	if sent := trace.Take(prefix); !slices.Equal(sent[:2], want) {
		t.Fatalf("the plan counted again, or the reservation was not used: %q", sent)
	}
	before, _ := a.Indexing(ctx, tg)
	trace.Take("")
	if _, err := a.Upsert(ctx, tg, crashRecords("new", 1)); !errors.Is(err, ErrPlanLimit) {
		t.Fatalf("a write over the limit: %v", err)
	}
	// Over the limit by the known count, the plan counts the request's records that
	// exist already (they would not count twice), and nothing else.
	if sent := trace.Take(prefix); !slices.Equal(sent, []string{"GET control/_doc/revision?realtime=true", "POST records/_count"}) {
		t.Fatalf("the refusal: %q", sent)
	}
	if after, _ := a.Indexing(ctx, tg); !reflect.DeepEqual(after, before) {
		t.Fatalf("a refused write moved the revisions: %+v, before %+v", after, before)
	}
	if tk := a.ticket(ctx, tg.Names); !tk.usable {
		t.Fatalf("the refused write gave back an unusable reservation: %+v", tk)
	}
}
