package catalog

import (
	"slices"
	"time"
)

// A write completes its revision in a compare-and-set that runs while its refresh runs,
// rather than after it: the compare-and-set is a durable write of the backend (an
// fsync) and the refresh mostly work of the processor, so the two overlap and a write
// costs about what the backend's own searchable write costs. Completed so, a revision
// is landed: its write is applied and durable, it no longer holds up a swap's drain and
// it counts for staged commits (LastWrite), but it may not be searchable yet, so
// indexedRevision stays below it. A landed revision is searchable after any refresh
// that starts once it was read, as its write was applied before it landed. Whoever
// knows of such a refresh drops it: the next write of a replica drops what it read
// before its own write (and its own earlier ones), GET /indexing refreshes when it
// reads any, and a swap drops them all, the alias then pointing at an index that was
// refreshed after they landed.

// IndexedCovering is indexedRevision when the landed revisions covered are known
// searchable: one below the lowest pending revision or other landed one.
func (s State) IndexedCovering(covered []int64) int64 {
	lowest := s.Revision + 1
	for _, l := range s.Pending {
		lowest = min(lowest, l.Rev)
	}
	for _, r := range s.Landed {
		if !slices.Contains(covered, r) {
			lowest = min(lowest, r)
		}
	}
	return lowest - 1
}

// Land completes rev, whose write reached the index but whose refresh may still run,
// and drops the landed revisions covered, known searchable.
func (s State) Land(now time.Time, rev int64, covered []int64) (State, error) {
	next, err := s.Complete(now, rev, true)
	if err != nil {
		return next, err
	}
	return next.dropLanded(covered).withLanded(rev), nil
}

// dropLanded forgets the landed revisions covered.
func (s State) dropLanded(covered []int64) State {
	if len(covered) == 0 || len(s.Landed) == 0 {
		return s
	}
	s.Landed = slices.DeleteFunc(slices.Clone(s.Landed), func(r int64) bool { return slices.Contains(covered, r) })
	if len(s.Landed) == 0 {
		s.Landed = nil
	}
	return s
}

func (s State) withLanded(rev int64) State {
	s.Landed = append(slices.Clone(s.Landed), rev)
	return s
}
