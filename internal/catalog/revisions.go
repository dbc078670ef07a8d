package catalog

import (
	"context"
	"fmt"

	"github.com/aislehq/aisle/internal/esnames"
)

// begin gets a write its revision: this replica's reservation when it can still be used
// (a read), else a new one (a compare-and-set that also releases the reservation),
// waiting (bounded) while a swap holds the fence.
func (s *Service) begin(ctx context.Context, names esnames.Index) (Lease, error) {
	held, usable := s.reserved(ctx, names)
	if usable {
		return held, nil
	}
	stale := held.Rev
	var lease Lease
	err := waitFor(ctx, s.cfg.FenceLease, func() error {
		var fenced error
		_, err := s.update(ctx, names, func(st State) (State, error) {
			var next State
			next, lease, fenced = s.allocate(st, stale)
			return next, nil
		})
		if err == nil {
			stale, err = 0, fenced
		}
		return err
	}, ErrFenced)
	if err != nil {
		return Lease{}, fmt.Errorf("allocating a revision for %s: %w", names.Alias(), err)
	}
	return lease, nil
}

// allocate releases the reservation stale (0: none) and allocates a revision. Under a
// live fence it allocates nothing but still writes the release, which the swap's drain
// waits for.
func (s *Service) allocate(st State, stale int64) (State, Lease, error) {
	now := s.cfg.Now()
	released := st.Release(now, stale)
	next, l, err := released.Allocate(now, s.cfg.WriteLease)
	if err != nil {
		return released, Lease{}, err
	}
	return next, l, nil
}

// finish removes rev from the pending revisions.
func (s *Service) finish(ctx context.Context, names esnames.Index, rev int64, applied bool) (State, error) {
	st, err := s.update(ctx, names, func(st State) (State, error) {
		return st.Complete(s.cfg.Now(), rev, applied)
	})
	if err != nil {
		return State{}, fmt.Errorf("completing revision %d of %s: %w", rev, names.Alias(), err)
	}
	return st, nil
}

// completeReserving completes the applied write rev and, in the same compare-and-set,
// reserves the next revision for this replica's next write, unless it holds one already
// or a fence is live.
func (s *Service) completeReserving(ctx context.Context, names esnames.Index, rev int64) (State, error) {
	wanted := !s.held.holds(names.Control())
	var reserved Lease
	st, err := s.update(ctx, names, func(st State) (State, error) {
		reserved = Lease{}
		next, err := st.Complete(s.cfg.Now(), rev, true)
		if err != nil || !wanted {
			return next, err
		}
		if r, l, err := next.Reserve(s.cfg.Now(), s.cfg.WriteLease, s.owner); err == nil {
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
