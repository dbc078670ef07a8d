package catalog

import (
	"context"
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

// release gives up an unused reservation.
func (s *Service) release(ctx context.Context, names esnames.Index, l Lease) {
	s.settle(ctx, names, func(st State, now time.Time) State { return st.Release(now, l.Rev) })
}

// settle makes a compare-and-set of names' revision document that nobody waits for (a
// release, a completion), bounded by the write lease; its failure leaves the revision
// to its lease.
func (s *Service) settle(ctx context.Context, names esnames.Index, change func(State, time.Time) State) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.WriteLease)
	defer cancel()
	_, _ = s.Update(ctx, names, func(st State) (State, error) {
		return change(st, s.cfg.Now()), nil
	})
}

// ReleaseReservations gives up the revisions this replica holds reserved, and
// completes those it landed, so that a replica shutting down does not hold up indexedRevision and catalog swaps until their
// leases end. Writes after it still work.
func (s *Service) ReleaseReservations(ctx context.Context) {
	for _, h := range s.held.takeAll() {
		s.release(ctx, h.names, h.v)
	}
	// Landed writes are complete but for their compare-and-set (write_land.go).
	for _, set := range s.landed.takeAll() {
		s.completeLandedRevs(ctx, set.names, set.v)
	}
}
