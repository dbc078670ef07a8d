package catalog

import (
	"context"
	"sync"
)

// Step 5 of a write, its count (and the plan's, step 2).
//
// A replica knows an index's record count after its own write at revision r: the
// write's receipt counted it. While nothing but this replica's reservation was handed
// out after r (a swap or a write hands out a revision first), its next write, with that
// reservation (r+1), starts from it:
//
//   - the plan check reads it instead of counting. It may miss a write that another
//     replica made with a reservation of its own, in flight during that count, as a
//     _count misses writes in flight;
//   - when no other write was running at r nor is at r+1 (exact), the count is the
//     index's, and the receipt adds what the write's own items created and deleted, as
//     the backend answered them, instead of counting.

// knownCount is an index's record count right after revision rev; exact when no other
// write of the index was running.
type knownCount struct {
	n, rev int64
	exact  bool
}

// knownCounts holds the last known count of each alias this replica wrote to.
type knownCounts struct {
	mu sync.Mutex
	m  map[string]knownCount
}

// before returns the count known right before the write with reservation l.
func (c *knownCounts) before(alias string, l Lease) (knownCount, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.m[alias]
	return k, ok && k.rev == l.Rev-1
}

func (c *knownCounts) set(alias string, k knownCount) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]knownCount{}
	}
	c.m[alias] = k
}

// countBefore is the index's count before the write with revision l, when l is the
// reservation (reserved) made by this replica's write whose count is known; exact as
// said above, for a write that runs alone. (A reservation names this replica: a revision
// allocated by compare-and-set could match a known count of an index deleted and
// created again under the same name.)
func (s *Service) countBefore(alias string, l Lease, reserved, alone bool) (n int64, known, exact bool) {
	if !reserved {
		return 0, false, false
	}
	k, ok := s.counts.before(alias, l)
	return k.n, ok, ok && k.exact && alone
}

// count returns the number of records behind an alias (0 when it does not exist yet).
func (s *Service) Count(ctx context.Context, alias string) (int64, error) {
	return s.idx.Count(ctx, alias)
}
