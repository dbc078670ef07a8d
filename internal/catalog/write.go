package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
)

// One record write (POST /records, DELETE /records/{objectID}; POST /record-writes in
// conditional.go), its steps in order. The helpers of a step are below it or in the
// write_*.go file named for it:
//
//  1. ticket: take this replica's reservation for the index (write_reserve.go), read
//     the revision document to check it;
//  2. checks: the plan (write_plan.go) and the records against the live mapping
//     (write_mapping.go); a refused request gives its ticket back;
//  3. begin: the ticket's reservation, or a revision allocated by compare-and-set,
//     grouped with this replica's other writers (Update, state_group.go);
//  4. apply, ending before the revision's lease does: one _bulk, undone when the
//     backend refuses a record (write_apply.go), or a conditional write;
//  5. finish a write that applied nothing, or conclude: the count (write_count.go),
//     the completion that reserves the next revision, the receipt.

// Upsert adds or replaces records (POST /records) as one write with one revision.
func (s *Service) Upsert(ctx context.Context, t Target, records []Record) (Receipt, error) {
	tk := s.ticket(ctx, t.Names)
	err := s.checkPlanUpsert(ctx, t, tk, records)
	if err == nil {
		err = s.checkLive(ctx, t.Names, records)
	}
	if err != nil {
		s.giveBack(t.Names, tk)
		return Receipt{}, err
	}
	return s.write(ctx, t.Names, tk, func(ctx context.Context, w run) (change, error) {
		if len(records) == 1 {
			w.land([]string{records[0].ID})
		}
		added, err := s.upsertOrUndo(ctx, t.Names.Alias(), records, w.rev)
		return change{applied: true, added: added}, err
	})
}

// Delete removes one record (DELETE /records/{objectID}); an absent record is a no-op
// write that still gets its revision and receipt.
func (s *Service) Delete(ctx context.Context, t Target, objectID string) (Receipt, error) {
	return s.write(ctx, t.Names, s.ticket(ctx, t.Names), func(ctx context.Context, _ run) (change, error) {
		added, err := s.bulkWrite(ctx, t.Names.Alias(), []BulkOp{{ID: objectID, Delete: true}})
		return change{applied: true, added: added}, err
	})
}

// ticket is this replica's reservation for an index, checked against the revision
// document: usable, and alone when no other write of the index is running.
type ticket struct {
	lease  Lease
	usable bool
	alone  bool
}

// ticket (step 1) takes this replica's reservation for names, if it holds one, for a
// write, and reads the revision document to check it.
func (s *Service) ticket(ctx context.Context, names esnames.Index) ticket {
	l, ok := s.held.take(names)
	if !ok {
		return ticket{}
	}
	st, v, err := s.loadState(ctx, names)
	if err != nil {
		return ticket{lease: l}
	}
	s.groups.of(names.Control()).remember(st, v)
	now := s.cfg.Now()
	usable := st.Holds(now, l)
	// This replica's landed writes are done: they leave the ticket alone.
	return ticket{lease: l, usable: usable, alone: usable && st.Prune(now).pendingBesides(s.landedDone(names)) == 1}
}

// giveBack takes back the ticket of a request refused by its checks (step 2): a usable
// reservation is held again, a stale one released.
func (s *Service) giveBack(names esnames.Index, tk ticket) {
	switch {
	case tk.usable:
		s.keepReserved(names, tk.lease)
	case tk.lease.Rev != 0:
		go s.release(context.Background(), names, tk.lease)
	}
}

// change is what a write did: whether it applied, and how many records it added (less
// those it deleted).
type change struct {
	applied bool
	added   int64
}

// write runs steps 3 to 5: apply under a revision, the ticket's or a fresh one, then
// finish or conclude. apply's context ends before the lease does, so a write never lands
// after its revision was given up.
func (s *Service) write(ctx context.Context, names esnames.Index, tk ticket, apply func(context.Context, run) (change, error)) (Receipt, error) {
	g, err := s.begin(ctx, names, tk)
	if err != nil {
		return Receipt{}, err
	}
	applyCtx, cancel := context.WithDeadline(ctx, time.UnixMilli(g.lease.Deadline).Add(-s.cfg.WriteLease/6))
	ln := s.newLanding(ctx, names, g.lease.Rev)
	ch, err := apply(applyCtx, run{rev: g.lease.Rev, land: ln.start})
	cancel()
	landed := ln.wait()
	if err != nil {
		// The revision is released; whether anything landed is unknown, so it does
		// not count as a write either way (no 202 was given), unless its landing
		// counted it already (write_land.go).
		_ = s.finish(context.WithoutCancel(ctx), names, g.lease.Rev)
		return Receipt{}, err
	}
	if !ch.applied {
		if err := s.finish(ctx, names, g.lease.Rev); err != nil {
			return Receipt{}, err
		}
		return Receipt{}, ErrVersionConflict
	}
	if landed {
		return s.concludeLanded(ctx, names, g, ch, ln.st)
	}
	return s.conclude(ctx, names, g, ch)
}

// grant is a write's revision; reserved when it is this replica's reservation, alone
// when no other write of the index was running when the write got it.
type grant struct {
	lease    Lease
	reserved bool
	alone    bool
}

// begin (step 3) gets a write its revision: the ticket's reservation when it can be used (the
// read is done), else a new one (a compare-and-set that also releases the ticket's stale
// reservation), waiting (bounded) while a swap holds the fence.
func (s *Service) begin(ctx context.Context, names esnames.Index, tk ticket) (grant, error) {
	if tk.usable {
		return grant{lease: tk.lease, reserved: true, alone: tk.alone}, nil
	}
	stale := tk.lease.Rev
	landed := s.landedDone(names)
	var g grant
	err := wait.For(ctx, s.cfg.FenceLease, func() error {
		var fenced error
		_, err := s.Update(ctx, names, func(st State) (State, error) {
			var next State
			next, g, fenced = s.allocate(st, stale, landed)
			if fenced != nil && stale == 0 {
				return st, fenced
			}
			return next, nil
		})
		if err == nil {
			stale, err = 0, fenced
		}
		return err
	}, ErrFenced)
	if err != nil {
		return grant{}, fmt.Errorf("allocating a revision for %s: %w", names.Alias(), err)
	}
	return g, nil
}

// allocate releases the reservation stale (0: none) and allocates a revision, alone when
// nothing but this replica's landed writes is pending. Under a live fence it allocates
// nothing, but the release is still to be written: the swap's drain waits for it.
func (s *Service) allocate(st State, stale int64, landed map[int64]bool) (State, grant, error) {
	now := s.cfg.Now()
	released := st.Release(now, stale).Prune(now)
	next, l, err := released.Allocate(now, s.cfg.WriteLease)
	if err != nil {
		return released, grant{}, err
	}
	return next, grant{lease: l, alone: released.pendingBesides(landed) == 0}, nil
}

// finish (step 5) removes rev, whose write applied nothing, from the pending revisions.
func (s *Service) finish(ctx context.Context, names esnames.Index, rev int64) error {
	_, err := s.Update(ctx, names, func(st State) (State, error) {
		return st.Complete(s.cfg.Now(), rev, false)
	})
	if err != nil {
		return fmt.Errorf("completing revision %d of %s: %w", rev, names.Alias(), err)
	}
	return nil
}

// conclude (step 5) completes an applied write and returns its receipt. Its count is
// the known count plus what the write added when that is exact (write_count.go);
// otherwise a _count runs beside the completion, the write being searchable already.
func (s *Service) conclude(ctx context.Context, names esnames.Index, g grant, ch change) (Receipt, error) {
	alias := names.Alias()
	n, _, exact := s.countBefore(alias, g.lease, g.reserved, g.alone)
	counted := make(chan error, 1)
	if exact {
		n += ch.added
		counted <- nil
	} else {
		go func() {
			var err error
			n, err = s.Count(ctx, alias)
			counted <- err
		}()
	}
	st, err := s.completeReserving(ctx, names, g.lease.Rev)
	if cerr := <-counted; err == nil {
		err = cerr
	}
	if err != nil {
		return Receipt{}, err
	}
	s.counts.set(alias, knownCount{n: n, rev: g.lease.Rev, exact: g.alone})
	return Receipt{AcceptedRevision: g.lease.Rev, IndexedRevision: st.Prune(s.cfg.Now()).Indexed(), RecordCount: n}, nil
}

// completeReserving completes the applied write rev and, in the same compare-and-set,
// reserves the next revision for this replica's next write when no write of the index
// holds an allocated revision (with writes running, someone would allocate before that
// next write and the reservation would only be released again), unless it holds one
// already or a fence is live. Other replicas' reservations do not stop it: an idle one
// is no write, and one in use allocates nothing.
func (s *Service) completeReserving(ctx context.Context, names esnames.Index, rev int64) (State, error) {
	_, held := s.held.peek(names)
	wanted := !held
	var reserved Lease
	st, err := s.Update(ctx, names, func(st State) (State, error) {
		reserved = Lease{}
		now := s.cfg.Now()
		next, err := st.Complete(now, rev, true)
		if err != nil || !wanted || next.Writing() {
			return next, err
		}
		if r, l, err := next.Reserve(now, s.cfg.WriteLease, s.owner); err == nil {
			next, reserved = r, l
		}
		return next, nil
	})
	if err != nil {
		return State{}, fmt.Errorf("completing revision %d of %s: %w", rev, names.Alias(), err)
	}
	if reserved.Rev != 0 {
		s.keepReserved(names, reserved)
	}
	return st, nil
}

// keepReserved holds a reservation made by this replica's completion of a write, or
// releases it when another is held already (concurrent writes completed together).
func (s *Service) keepReserved(names esnames.Index, l Lease) {
	release := func(l Lease) { s.release(context.Background(), names, l) }
	refuse := func(Lease) (Lease, bool) { return Lease{}, false }
	if !s.held.put(names, l, s.cfg.ReserveIdle, refuse, release) {
		go release(l)
	}
}
