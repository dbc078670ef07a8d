package catalog

import (
	"context"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
)

// The reservations that step 1 of a write takes (ticket, write.go) and step 5 makes
// (completeReserving).
//
// A write's revision is allocated by a compare-and-set, a write the backend makes
// durable before it answers, and completed by another. To save the first, the
// compare-and-set that completes a write also reserves the next revision for this
// replica's next write to the index. That write reads the revision document (a read,
// not a durable write) and uses the reservation if it is still pending and still the
// last revision handed out, with no fence: using it then is the same as allocating it
// at that moment, as nobody allocated since. Otherwise the write allocates as before and
// releases the reservation in the same compare-and-set.
//
// A reservation is made only when no write of the index holds an allocated revision:
// otherwise someone would allocate before the next write, and the reservation would
// only cost its check and its release. It is pending like a write's revision: indexedRevision stays
// below it, and a swap's drain waits for it. So an unused one is released after
// Config.ReserveIdle (and when the API server shuts down), and acceptedRevision leaves
// out reservations that no write has finished with. A replica that dies holding one
// holds it until its lease ends, as a write that dies does.

// heldReservation is a reservation this replica holds for an index, with the timer
// that releases it.
type heldReservation struct {
	names esnames.Index
	lease Lease
	timer *time.Timer
}

// reservations are the reservations this replica holds, by control index.
type reservations struct {
	mu sync.Mutex
	m  map[string]*heldReservation
}

// take hands the reservation held for names to a write.
func (r *reservations) take(names esnames.Index) (Lease, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h, ok := r.m[names.Control()]
	if !ok {
		return Lease{}, false
	}
	h.timer.Stop()
	delete(r.m, names.Control())
	return h.lease, true
}

// takeAll hands over every reservation held.
func (r *reservations) takeAll() []*heldReservation {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*heldReservation, 0, len(r.m))
	for control, h := range r.m {
		h.timer.Stop()
		delete(r.m, control)
		out = append(out, h)
	}
	return out
}

func (r *reservations) holds(names esnames.Index) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.m[names.Control()]
	return ok
}

// keep holds l for the next write to names, and calls release with it unless a write
// takes it within idle. It reports false, keeping nothing, when one is held already.
func (r *reservations) keep(names esnames.Index, l Lease, idle time.Duration, release func(Lease)) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	control := names.Control()
	if _, ok := r.m[control]; ok {
		return false
	}
	if r.m == nil {
		r.m = map[string]*heldReservation{}
	}
	h := &heldReservation{names: names, lease: l}
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

// release gives up an unused reservation.
func (s *Service) release(ctx context.Context, names esnames.Index, l Lease) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.WriteLease)
	defer cancel()
	_, _ = s.Update(ctx, names, func(st State) (State, error) {
		return st.Release(s.cfg.Now(), l.Rev), nil
	})
}

// ReleaseReservations gives up the revisions this replica holds reserved, and
// completes those it landed, so that a replica shutting down does not hold up indexedRevision and catalog swaps until their
// leases end. Writes after it still work.
func (s *Service) ReleaseReservations(ctx context.Context) {
	for _, h := range s.held.takeAll() {
		s.release(ctx, h.names, h.lease)
	}
	// Landed writes are complete but for their compare-and-set (write_land.go).
	for _, set := range s.landed.takeAll() {
		s.completeLandedRevs(ctx, set.names, set.revs)
	}
}
