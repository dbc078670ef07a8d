package catalog

import (
	"sync"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/operationtype"
)

// A replica knows an index's record count without a _count while nobody else writes to
// it. The count after its write at revision r, when no other write of the index was
// running, stays exact as long as nothing but this replica's reservation was handed out
// after r (a swap or a write hands out a revision first). A write that runs alone with
// that reservation (revision r+1) starts from it: the plan check reads it, and the
// write's receipt adds what the write's own items created and deleted, as the backend
// answered them. Any other write counts.

// knownCount is an index's record count right after revision rev.
type knownCount struct{ n, rev int64 }

// knownCounts holds the last known count of each alias this replica wrote to.
type knownCounts struct {
	mu sync.Mutex
	m  map[string]knownCount
}

// before returns the count known right before a write at revision rev.
func (c *knownCounts) before(alias string, rev int64) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.m[alias]
	return k.n, ok && k.rev == rev-1
}

func (c *knownCounts) set(alias string, n, rev int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]knownCount{}
	}
	c.m[alias] = knownCount{n: n, rev: rev}
}

// countBefore is the index's count before the write g, when g runs alone with the
// reservation made by a write of this replica whose count is known. (A reservation
// names this replica: a revision allocated by compare-and-set could match a known count
// of an index deleted and created again under the same name.)
func (s *Service) countBefore(alias string, g grant) (int64, bool) {
	if !g.reserved || !g.alone {
		return 0, false
	}
	return s.counts.before(alias, g.lease.Rev)
}

// change is what a write did: whether it applied, and how many records it added (less
// those it deleted).
type change struct {
	applied bool
	added   int64
}

// bulkAdded is the records a _bulk's items created less those they deleted.
func bulkAdded(items []map[operationtype.OperationType]types.ResponseItem) int64 {
	var n int64
	for _, item := range items {
		for _, r := range item {
			switch {
			case r.Error != nil || r.Result == nil:
			case *r.Result == "created":
				n++
			case *r.Result == "deleted":
				n--
			}
		}
	}
	return n
}
