package catalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestApplyChangesFoldsTheGroupInOrder(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	allocate := &stateChange{fn: func(st State) (State, error) {
		next, _, err := st.Allocate(now, time.Minute)
		return next, err
	}}
	refuse := &stateChange{fn: func(st State) (State, error) { return st, ErrSwapBusy }}

	next, errs, ok := applyChanges(State{Revision: 4}, []*stateChange{allocate, refuse, allocate})
	if !ok || next.Revision != 6 || len(next.Pending) != 2 {
		t.Fatalf("two allocations around a refusal: ok %v, %+v", ok, next)
	}
	if errs[0] != nil || !errors.Is(errs[1], ErrSwapBusy) || errs[2] != nil {
		t.Fatalf("errors: %v", errs)
	}
	if _, _, ok := applyChanges(State{}, []*stateChange{refuse}); ok {
		t.Fatal("a group of refusals changed the state")
	}
}

// TestGroupedRevisionsAcrossTwoReplicas runs writers on two services (two replicas) at
// once: revisions stay unique, each writer's rise, nothing stays pending, and concurrent
// writers of one replica share compare-and-sets.
func TestGroupedRevisionsAcrossTwoReplicas(t *testing.T) {
	const perReplica, writes = 8, 15
	p := newReplicaPair(t, "two", Config{}, Config{})
	traces, replicas, tg := []*tracer{p.traceA, p.traceB}, []*Service{p.a, p.b}, p.tg
	var (
		mu   sync.Mutex
		seen = map[int64]bool{}
		wg   sync.WaitGroup
	)
	for w := 0; w < 2*perReplica; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int64(0)
			for n := 0; n < writes; n++ {
				r, err := replicas[w%2].Upsert(context.Background(), tg, crashRecords(fmt.Sprintf("w%d-%d", w, n), 1))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				dup := seen[r.AcceptedRevision]
				seen[r.AcceptedRevision] = true
				mu.Unlock()
				if dup || r.AcceptedRevision <= last {
					t.Errorf("writer %d got revision %d after %d (handed out before: %v)", w, r.AcceptedRevision, last, dup)
				}
				last = r.AcceptedRevision
			}
		}()
	}
	wg.Wait()
	st := drained(t, replicas[1], tg)
	if last := slices.Max(slices.Collect(maps.Keys(seen))); st.LastWrite != last || st.Accepted() < last {
		t.Fatalf("state after the writes, the last of which was %d: %+v", last, st)
	}
	for i, tr := range traces {
		casWrites := countMatching(tr.Take(""), "PUT /aisle.pair.two.control/_doc/revision")
		t.Logf("replica %d: %d compare-and-sets", i, casWrites)
		if changes := perReplica * writes * 2; casWrites >= changes {
			t.Errorf("replica %d wrote the revision document %d times for %d changes: nothing was grouped", i, casWrites, changes)
		}
	}
}

// TestARememberedFenceDoesNotRefuseAWriter: a replica that saw a fence which another
// replica has cleared since allocates without waiting for the fence's lease.
func TestARememberedFenceDoesNotRefuseAWriter(t *testing.T) {
	p := newReplicaPair(t, "fence", Config{}, Config{})
	a, b, tg, ctx := p.a, p.b, p.tg, context.Background()
	if _, err := b.Update(ctx, tg.Names, func(st State) (State, error) {
		return st.SetFence(b.cfg.Now(), "b", time.Hour)
	}); err != nil {
		t.Fatal(err)
	}
	// Under the live fence the writer waits or is refused; either way it never allocates.
	// How the short context ends its wait (deadline, or the transport's cancellation) is
	// the machine's business, not what this test checks.
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if g, err := a.begin(short, tg.Names, ticket{}); err == nil {
		t.Fatalf("allocated revision %d under a live fence", g.lease.Rev)
	} else if !errors.Is(err, ErrFenced) && short.Err() == nil {
		t.Fatalf("allocating under a live fence: %v", err)
	}
	if _, err := b.Update(ctx, tg.Names, func(st State) (State, error) { return st.ClearFence("b"), nil }); err != nil {
		t.Fatal(err)
	}
	// Waiting for the remembered fence would take its lease, an hour: a minute tells
	// the two apart on any machine.
	bounded, cancelBounded := context.WithTimeout(ctx, time.Minute)
	defer cancelBounded()
	g, err := a.begin(bounded, tg.Names, ticket{})
	if err != nil || g.lease.Rev != 1 {
		t.Fatalf("allocating after the fence was cleared: %+v %v", g, err)
	}
}

// drained waits until no revision of tg is pending, the replicas' unused reservations
// released, and returns the revision document then.
func drained(t *testing.T, svc *Service, tg Target) State {
	t.Helper()
	deadline := time.Now().Add(DefaultWriteLease) // a reservation never released outlives any machine's delay
	for {
		st, _, err := svc.loadState(context.Background(), tg.Names)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Pending) == 0 {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("revisions still pending: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func countMatching(lines []string, prefix string) int {
	return len(slices.DeleteFunc(lines, func(l string) bool { return !strings.HasPrefix(l, prefix) }))
}
