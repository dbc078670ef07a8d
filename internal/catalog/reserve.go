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

// reserved hands this replica's reservation for names to a write when it can still be
// used; one that cannot is returned as stale, for the allocation to release.
func (s *Service) reserved(ctx context.Context, names esnames.Index) (l Lease, usable bool) {
	l, ok := s.held.take(names.Control())
	if !ok {
		return Lease{}, false
	}
	st, v, err := s.loadState(ctx, names)
	if err != nil {
		return l, false
	}
	s.groups.of(names.Control()).remember(&knownState{st: st, v: v})
	return l, st.Holds(s.cfg.Now(), l)
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
