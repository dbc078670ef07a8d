package catalog

import (
	"slices"
	"time"

	"github.com/aislehq/aisle/internal/indexlifecycle"
)

// Lease is a revision handed to a writer that has not finished yet. Its writer must not
// start writing after Deadline; the next change of the state after Deadline drops it.
type Lease struct {
	Rev      int64 `json:"rev"`
	Deadline int64 `json:"deadline"` // Unix milliseconds
	// Owner names the replica a revision is reserved for, ahead of its next write
	// (write_reserve.go); empty for a revision allocated to a write.
	Owner string `json:"owner,omitempty"`
	// Landing are the records a write is landing at this revision, set by the
	// compare-and-set sent beside its _bulk (state_land.go): the write counts as one
	// from then on, and is searchable once a search finds each of them at Rev.
	Landing []string `json:"landing,omitempty"`
}

// is reports whether p is the lease l, as it was handed out.
func (p Lease) is(l Lease) bool {
	return p.Rev == l.Rev && p.Deadline == l.Deadline && p.Owner == l.Owner && len(p.Landing) == len(l.Landing)
}

// Fence stops new revisions while a catalog swap moves the alias. It has a deadline too,
// so a crashed committer does not block writes for longer than one lease.
type Fence struct {
	Owner    string `json:"owner"`
	Deadline int64  `json:"deadline"` // Unix milliseconds
}

// State is the revision document of one SearchIndex (id "revision" in its control
// index). Every change is a compare-and-set on the whole document.
type State struct {
	// Revision is the last revision handed out (acceptedRevision).
	Revision int64 `json:"revision"`
	// LastWrite is the highest revision whose write reached the index; revisions of
	// refused conditional writes never raise it, so they do not fail staged commits.
	LastWrite int64 `json:"lastWrite"`
	// Pending are the revisions whose writers have not finished.
	Pending []Lease `json:"pending"`
	// Fence is set while a swap is in progress.
	Fence *Fence `json:"fence"`
	// Generation is the last physical index generation handed out.
	Generation int64 `json:"generation"`
	// Bases maps a physical index filled by a replacement to the revision of that
	// replacement: the version of its records that carry no version of their own.
	Bases map[string]int64 `json:"bases"`
}

// millis converts a time to the Unix milliseconds stored in leases.
func millis(t time.Time) int64 { return t.UnixMilli() }

// Prune drops expired pending revisions and an expired fence. Their writers either
// never wrote or never answered 202, so no acknowledged write is uncovered.
func (s State) Prune(now time.Time) State {
	n := millis(now)
	out := s
	out.Pending = slices.DeleteFunc(slices.Clone(s.Pending), func(l Lease) bool { return l.Deadline <= n })
	if s.Fence != nil && s.Fence.Deadline <= n {
		out.Fence = nil
	}
	return out
}

// Indexed is indexedRevision: every revision at or below it is searchable, because no
// writer of a revision at or below it is still working.
func (s State) Indexed() int64 { return s.IndexedBesides(nil) }

// IndexedBesides is Indexed with the pending revisions in done counted as searchable:
// landing writes known to be (state_land.go).
func (s State) IndexedBesides(done map[int64]bool) int64 {
	lowest := s.Revision + 1
	for _, l := range s.Pending {
		if !done[l.Rev] {
			lowest = min(lowest, l.Rev)
		}
	}
	return lowest - 1
}

// Allocate hands out the next revision with a lease, unless a live fence stops writes.
func (s State) Allocate(now time.Time, lease time.Duration) (State, Lease, error) {
	s = s.Prune(now)
	if s.Fence != nil {
		return s, Lease{}, ErrFenced
	}
	s.Revision++
	l := Lease{Rev: s.Revision, Deadline: millis(now.Add(lease))}
	s.Pending = append(s.Pending, l)
	return s, l, nil
}

// Reserve hands out the next revision ahead, for owner's next write, unless a live fence
// stops writes. Until that write, it is pending like a write's revision.
func (s State) Reserve(now time.Time, lease time.Duration, owner string) (State, Lease, error) {
	next, l, err := s.Allocate(now, lease)
	if err != nil {
		return s, Lease{}, err
	}
	l.Owner = owner
	next.Pending[len(next.Pending)-1] = l
	return next, l, nil
}

// Holds reports whether reservation l may be used now: it is still pending and still the
// last revision handed out, and no fence is live. Using it is then the same as
// allocating it now.
func (s State) Holds(now time.Time, l Lease) bool {
	s = s.Prune(now)
	return s.Fence == nil && s.Revision == l.Rev && len(l.Landing) == 0 &&
		slices.ContainsFunc(s.Pending, func(p Lease) bool { return p.is(l) })
}

// Release drops the reservation rev, unused, if it is still pending. When nothing was
// handed out after it, the revision is taken back: no write ever had it, and
// acceptedRevision left it out, so nobody saw it as a write's.
func (s State) Release(now time.Time, rev int64) State {
	if s.landing(rev) {
		return s // a write's, not a reservation: never taken back
	}
	next, err := s.Complete(now, rev, false)
	if err != nil {
		return s
	}
	if next.Revision == rev {
		next.Revision--
	}
	return next
}

// Writing reports whether a write holds a revision it was allocated (a reservation is
// left out: its owner may not write again; so is a landing write, done but for its
// completion as a rule, state_land.go).
func (s State) Writing() bool { return s.writingBesides(0) }

// Accepted is acceptedRevision: the last revision handed out, leaving out the
// reservations on top of it, which no write has used yet (a landing one has).
func (s State) Accepted() int64 {
	r := s.Revision
	for r > 0 && slices.ContainsFunc(s.Pending, func(l Lease) bool { return l.Rev == r && l.Owner != "" && len(l.Landing) == 0 }) {
		r--
	}
	return r
}

// Complete removes rev from the pending revisions; applied says whether its write reached
// the index. It fails with ErrLeaseLost when rev is no longer pending: its lease ran out
// and the write's outcome must not be acknowledged.
func (s State) Complete(now time.Time, rev int64, applied bool) (State, error) {
	s = s.Prune(now)
	i := slices.IndexFunc(s.Pending, func(l Lease) bool { return l.Rev == rev })
	if i < 0 {
		return s, ErrLeaseLost
	}
	s.Pending = slices.Delete(s.Pending, i, i+1)
	if applied {
		s.LastWrite = max(s.LastWrite, rev)
	}
	return s, nil
}

// SetFence sets (or renews) owner's fence; another live fence makes it ErrSwapBusy.
func (s State) SetFence(now time.Time, owner string, lease time.Duration) (State, error) {
	s = s.Prune(now)
	if s.Fence != nil && s.Fence.Owner != owner {
		return s, ErrSwapBusy
	}
	s.Fence = &Fence{Owner: owner, Deadline: millis(now.Add(lease))}
	return s, nil
}

// ClearFence removes owner's fence (someone else's stays).
func (s State) ClearFence(owner string) State {
	if s.Fence != nil && s.Fence.Owner == owner {
		s.Fence = nil
	}
	return s
}

// BeginSwap allocates the revision of a catalog swap to physical: the caller must hold
// the fence and no write may be pending. The new index's records without a version of
// their own get this revision as their version.
func (s State) BeginSwap(now time.Time, owner, physical string, lease time.Duration) (State, Lease, error) {
	s = s.Prune(now)
	if s.Fence == nil || s.Fence.Owner != owner {
		return s, Lease{}, ErrSwapBusy
	}
	if len(s.Pending) > 0 {
		return s, Lease{}, ErrNotDrained
	}
	s.Revision++
	l := Lease{Rev: s.Revision, Deadline: millis(now.Add(lease))}
	s.Pending = append(s.Pending, l)
	bases := make(map[string]int64, len(s.Bases)+1)
	for k, v := range s.Bases {
		bases[k] = v
	}
	bases[physical] = s.Revision
	s.Bases = bases
	return s, l, nil
}

// Settle repairs the state after owner's swap to physical crashed. moved says whether
// it had moved the alias: then its revision counts as a write (a stage started before
// it must not commit over it) and its fence goes. Otherwise its revision is released
// and the fence stays, for the retry (the same owner) to renew rather than wait out.
func (s State) Settle(now time.Time, owner, physical string, moved bool) State {
	base := s.Bases[physical]
	if next, err := s.Complete(now, base, moved); err == nil {
		s = next
	} else {
		s = s.Prune(now)
	}
	if !moved {
		return s
	}
	s.LastWrite = max(s.LastWrite, base)
	return s.ClearFence(owner)
}

// NextGeneration hands out a physical index generation above both the stored counter
// and highest, the highest generation that exists (indexlifecycle.Next).
func (s State) NextGeneration(highest int64) (State, int64) {
	s.Generation = indexlifecycle.Next(s.Generation, highest)
	return s, s.Generation
}

// PruneBases keeps the bases of the indices that still exist.
func (s State) PruneBases(exists func(string) bool) State {
	if len(s.Bases) == 0 {
		return s
	}
	bases := map[string]int64{}
	for k, v := range s.Bases {
		if exists(k) {
			bases[k] = v
		}
	}
	s.Bases = bases
	return s
}

// DropBase forgets the base revision of a deleted physical index.
func (s State) DropBase(physical string) State {
	if _, ok := s.Bases[physical]; !ok {
		return s
	}
	return s.PruneBases(func(name string) bool { return name != physical })
}
