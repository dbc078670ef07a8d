package catalog

import (
	"slices"
	"time"
)

// Landing, as the revision document sees it (write_land.go sends it).
//
// A one-record write used to complete its revision by a compare-and-set after its
// _bulk returned: two durable writes one after the other. Instead, its compare-and-set
// goes beside the _bulk and marks the revision landing, with the record it writes:
//
//   - from then on the revision counts as a write: LastWrite is raised at once (so a
//     stage started before it refuses its commit, even if the _bulk then fails: a
//     spurious 409 is the price, a lost acknowledged write would be worse), and
//     acceptedRevision includes it;
//   - it stays pending, so indexedRevision, swaps' drains and rebuilds' marks wait for it
//     as for any write, until its writer completes it in a later compare-and-set (the
//     next write's, or after Config.ReserveIdle), or its lease ends;
//   - a reader of indexedRevision may count it searchable once a search finds each of
//     its records at its revision (Service.searchableLandings): the record's version is
//     the revision of the write that last changed it, so that search sees this write.

// Land marks the pending revision rev as landing the records ids, and counts it as a
// write. It fails with ErrLeaseLost when rev is no longer pending.
//
// A reservation used by the write stops naming its owner: it is a write's revision from
// then on. During a rolling upgrade, a replica of the version before landings rewrites
// the document without Landing; the lease must then still read as a write in flight
// (counted in acceptedRevision, waited for by indexedRevision and drains), not as an
// unused reservation, which acceptedRevision leaves out (land_upgrade_test.go).
func (s State) Land(now time.Time, rev int64, ids []string) (State, error) {
	s = s.Prune(now)
	i := slices.IndexFunc(s.Pending, func(l Lease) bool { return l.Rev == rev })
	if i < 0 {
		return s, ErrLeaseLost
	}
	s.Pending = slices.Clone(s.Pending)
	s.Pending[i].Landing = slices.Clone(ids)
	s.Pending[i].Owner = ""
	s.LastWrite = max(s.LastWrite, rev)
	return s, nil
}

// landing reports whether rev is pending and landing.
func (s State) landing(rev int64) bool {
	return slices.ContainsFunc(s.Pending, func(l Lease) bool { return l.Rev == rev && len(l.Landing) > 0 })
}

// writingBesides is Writing leaving out the revision rev, the caller's own.
func (s State) writingBesides(rev int64) bool {
	return slices.ContainsFunc(s.Pending, func(l Lease) bool { return l.Owner == "" && len(l.Landing) == 0 && l.Rev != rev })
}

// pendingBesides counts the pending revisions outside done.
func (s State) pendingBesides(done map[int64]bool) int {
	n := 0
	for _, l := range s.Pending {
		if !done[l.Rev] {
			n++
		}
	}
	return n
}

// completeLanded completes the landed revisions revs, whose writes applied; those no
// longer pending (their lease ran out, or completed already) are skipped.
func (s State) completeLanded(now time.Time, revs []int64) State {
	for _, rev := range revs {
		if next, err := s.Complete(now, rev, true); err == nil {
			s = next
		}
	}
	return s
}

// landings are the pending landing revisions outside done.
func (s State) landings(done map[int64]bool) []Lease {
	var out []Lease
	for _, l := range s.Pending {
		if len(l.Landing) > 0 && !done[l.Rev] {
			out = append(out, l)
		}
	}
	return out
}
