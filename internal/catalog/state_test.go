package catalog

import (
	"errors"
	"testing"
	"time"
)

func TestStateTransitions(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	lease := 10 * time.Second
	s, l1, err := State{}.Allocate(now, lease)
	if err != nil || l1.Rev != 1 {
		t.Fatalf("allocate: %v %+v", err, l1)
	}
	s, l2, _ := s.Allocate(now, lease)
	if got := s.Indexed(); got != 0 {
		t.Fatalf("indexed with 1 and 2 pending = %d, want 0", got)
	}
	s, _ = s.Complete(now, l2.Rev, true)
	if got := s.Indexed(); got != 0 {
		t.Fatalf("indexed with 1 pending = %d, want 0", got)
	}
	s, _ = s.Complete(now, l1.Rev, false)
	if s.Indexed() != 2 || s.LastWrite != 2 {
		t.Fatalf("after both: indexed %d lastWrite %d, want 2 and 2", s.Indexed(), s.LastWrite)
	}
	if _, err := s.Complete(now, 1, true); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("completing twice: %v, want ErrLeaseLost", err)
	}

	// An expired lease is dropped: indexedRevision moves past it, its writer loses it.
	s, l3, _ := s.Allocate(now, lease)
	later := now.Add(lease + time.Millisecond)
	if got := s.Prune(later).Indexed(); got != l3.Rev {
		t.Fatalf("indexed after expiry = %d, want %d", got, l3.Rev)
	}
	if _, err := s.Complete(later, l3.Rev, true); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("late completion: %v, want ErrLeaseLost", err)
	}

	// A fence stops allocations and needs a drained state to begin the swap.
	s, l4, _ := s.Prune(later).Allocate(later, lease)
	f, err := s.SetFence(later, "a", lease)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.Allocate(later, lease); !errors.Is(err, ErrFenced) {
		t.Fatalf("allocate under fence: %v", err)
	}
	if _, err := f.SetFence(later, "b", lease); !errors.Is(err, ErrSwapBusy) {
		t.Fatalf("second fence: %v", err)
	}
	if _, _, err := f.BeginSwap(later, "a", "p-2", lease); !errors.Is(err, ErrNotDrained) {
		t.Fatalf("swap with pending: %v", err)
	}
	f, _ = f.Complete(later, l4.Rev, true)
	f, sw, err := f.BeginSwap(later, "a", "p-2", lease)
	if err != nil || sw.Rev != l4.Rev+1 || f.Bases["p-2"] != sw.Rev {
		t.Fatalf("swap: %v %+v %+v", err, sw, f.Bases)
	}
	f, _ = f.Complete(later, sw.Rev, true)
	f = f.ClearFence("a")
	if _, _, err := f.Allocate(later, lease); err != nil {
		t.Fatalf("allocate after the swap: %v", err)
	}
	// An expired fence no longer blocks writes.
	g, _ := State{}.SetFence(now, "x", lease)
	if _, _, err := g.Allocate(later, lease); err != nil {
		t.Fatalf("allocate after the fence expired: %v", err)
	}
}

func TestValidateRecord(t *testing.T) {
	cases := map[string]string{
		`{"objectID":"a"}`:                  "",
		`{"objectid":"a"}`:                  "objectID must be a non-empty string",
		`{"objectID":""}`:                   "objectID must be a non-empty string",
		`{"objectID":"a","aisleVersion":1}`: "aisleVersion is a reserved field name",
		`[1]`:                               "must be a JSON object",
	}
	for in, want := range cases {
		_, err := ValidateRecord([]byte(in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", in, got, want)
		}
	}
	if got := string(WithVersion([]byte(`{"objectID":"a"}`), 7)); got != `{"objectID":"a","aisleVersion":7}` {
		t.Errorf("withVersion: %s", got)
	}
}

func TestReservations(t *testing.T) {
	now := time.UnixMilli(1_000_000)
	lease := 10 * time.Second
	s, w1, _ := State{}.Allocate(now, lease)
	s, _ = s.Complete(now, w1.Rev, true)
	s, r, err := s.Reserve(now, lease, "a")
	if err != nil || r.Rev != 2 || r.Owner != "a" {
		t.Fatalf("reserve: %+v %v", r, err)
	}
	if s.Accepted() != 1 || s.Indexed() != 1 || !s.Holds(now, r) || s.Writing() {
		t.Fatalf("after the reservation: accepted %d, indexed %d, holds %v", s.Accepted(), s.Indexed(), s.Holds(now, r))
	}
	if back := s.Release(now, r.Rev); back.Revision != 1 || len(back.Pending) != 0 {
		t.Fatalf("releasing the last revision handed out takes it back: %+v", back)
	}
	later, w2, _ := s.Allocate(now, lease)
	if later.Holds(now, r) || later.Accepted() != w2.Rev || !later.Writing() {
		t.Fatalf("a reservation with a revision handed out after it still holds: %+v", later)
	}
	if gap := later.Release(now, r.Rev); gap.Revision != w2.Rev || len(gap.Pending) != 1 {
		t.Fatalf("releasing a reservation below a write's revision: %+v", gap)
	}
	fenced, _ := s.SetFence(now, "swap", lease)
	if fenced.Holds(now, r) {
		t.Fatal("a reservation holds under a fence")
	}
	if _, _, err := fenced.Reserve(now, lease, "a"); !errors.Is(err, ErrFenced) {
		t.Fatalf("reserving under a fence: %v", err)
	}
	if expired := s.Prune(now.Add(lease)); expired.Holds(now.Add(lease), r) {
		t.Fatal("an expired reservation holds")
	}
}
