package catalog

import (
	"context"
	"fmt"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/esnames"
)

// grant is a write's revision; reserved when it is this replica's reservation, alone
// when no other write of the index was running when the write got it.
type grant struct {
	lease    Lease
	reserved bool
	alone    bool
}

// begin gets a write its revision: the ticket's reservation when it can be used (the
// read is done), else a new one (a compare-and-set that also releases the ticket's stale
// reservation), waiting (bounded) while a swap holds the fence.
func (s *Service) begin(ctx context.Context, names esnames.Index, tk ticket) (grant, error) {
	if tk.usable {
		return grant{lease: tk.lease, reserved: true, alone: tk.alone}, nil
	}
	stale := tk.lease.Rev
	var g grant
	err := wait.For(ctx, s.cfg.FenceLease, func() error {
		var fenced error
		_, err := s.Update(ctx, names, func(st State) (State, error) {
			var next State
			next, g, fenced = s.allocate(st, stale)
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

// allocate releases the reservation stale (0: none) and allocates a revision. Under a
// live fence it allocates nothing, but the release is still to be written: the swap's
// drain waits for it.
func (s *Service) allocate(st State, stale int64) (State, grant, error) {
	now := s.cfg.Now()
	released := st.Release(now, stale).Prune(now)
	next, l, err := released.Allocate(now, s.cfg.WriteLease)
	if err != nil {
		return released, grant{}, err
	}
	return next, grant{lease: l, alone: len(released.Pending) == 0}, nil
}

// finish removes rev from the pending revisions.
func (s *Service) finish(ctx context.Context, names esnames.Index, rev int64, applied bool) error {
	_, err := s.Update(ctx, names, func(st State) (State, error) {
		return st.Complete(s.cfg.Now(), rev, applied)
	})
	if err != nil {
		return fmt.Errorf("completing revision %d of %s: %w", rev, names.Alias(), err)
	}
	return nil
}

// completeReserving completes the applied write rev and, in the same compare-and-set,
// reserves the next revision for this replica's next write when no write of the index
// holds an allocated revision (with writes running, someone would allocate before that
// next write and the reservation would only be released again), unless it holds one
// already or a fence is live. Other replicas' reservations do not stop it: an idle one
// is no write, and one in use allocates nothing.
func (s *Service) completeReserving(ctx context.Context, names esnames.Index, rev int64) (State, error) {
	wanted := !s.held.holds(names)
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
