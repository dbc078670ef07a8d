package catalog

import (
	"context"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
)

// A write's revision is allocated by a compare-and-set, a write the backend makes
// durable before it answers, and completed by another. To save the first, the
// compare-and-set that completes a write also reserves the next revision for this
// replica's next write to the index. That write reads the revision document (a read,
// not a durable write) and uses the reservation if it is still pending and still the
// last revision handed out, with no fence: using it then is the same as allocating it
// at that moment, as nobody allocated since. Otherwise the write allocates as before and
// releases the reservation in the same compare-and-set.
//
// A reservation is pending like a write's revision: indexedRevision stays below it, and
// a swap's drain waits for it. So an unused one is released after Config.ReserveIdle,
// and acceptedRevision leaves out reservations that no write has finished with. A
// replica that dies holding one holds it until its lease ends, as a write that dies does.

// heldReservation is a reservation this replica holds, with the timer that releases it.
type heldReservation struct {
	lease Lease
	timer *time.Timer
}

// reservations are the reservations this replica holds, by control index.
type reservations struct {
	mu sync.Mutex
	m  map[string]*heldReservation
}

// take hands the reservation held for control to a write.
func (r *reservations) take(control string) (Lease, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.m[control]
	if !ok {
		return Lease{}, false
	}
	h.timer.Stop()
	delete(r.m, control)
	return h.lease, true
}

func (r *reservations) holds(control string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.m[control]
	return ok
}

// keep holds l for control's next write, and calls release with it unless a write takes
// it within idle. It reports false, keeping nothing, when one is held already.
func (r *reservations) keep(control string, l Lease, idle time.Duration, release func(Lease)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[control]; ok {
		return false
	}
	if r.m == nil {
		r.m = map[string]*heldReservation{}
	}
	h := &heldReservation{lease: l}
	h.timer = time.AfterFunc(idle, func() {
		r.mu.Lock()
		mine := r.m[control] == h
		if mine {
			delete(r.m, control)
		}
		r.mu.Unlock()
		if mine {
			release(l)
		}
	})
	r.m[control] = h
	return true
}

// ticket is this replica's reservation for an index, checked against the revision
// document: usable, and alone when no other write of the index is running.
type ticket struct {
	lease  Lease
	usable bool
	alone  bool
}

// ticket takes this replica's reservation for names, if it holds one, for a write, and
// reads the revision document to check it.
func (s *Service) ticket(ctx context.Context, names esnames.Index) ticket {
	l, ok := s.held.take(names.Control())
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
	return ticket{lease: l, usable: usable, alone: usable && len(st.Prune(now).Pending) == 1}
}

// giveBack takes back the ticket of a request refused before its write: a usable
// reservation is held again, a stale one released.
func (s *Service) giveBack(names esnames.Index, tk ticket) {
	switch {
	case tk.usable:
		s.keepReserved(names, tk.lease)
	case tk.lease.Rev != 0:
		go s.release(names, tk.lease)
	}
}

// keepReserved holds a reservation made by this replica's completion of a write, or
// releases it when another is held already (concurrent writes completed together).
func (s *Service) keepReserved(names esnames.Index, l Lease) {
	release := func(l Lease) { s.release(names, l) }
	if !s.held.keep(names.Control(), l, s.cfg.ReserveIdle, release) {
		go release(l)
	}
}

// release gives up an unused reservation.
func (s *Service) release(names esnames.Index, l Lease) {
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.WriteLease)
	defer cancel()
	_, _ = s.update(ctx, names, func(st State) (State, error) {
		return st.Release(s.cfg.Now(), l.Rev), nil
	})
}
