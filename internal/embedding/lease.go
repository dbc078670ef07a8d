package embedding

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// One replica at a time embeds an embedder's records: it holds the control document
// "embed.<name>" of the index until its deadline, renewed at each pass. Another takes
// over once the deadline passed (the holder crashed or stalled), or at once when the
// holder stopped cleanly and released it (a restarted replica has a new name and would
// otherwise wait for its own old lease). Should two ever work at once, the guarded
// updates keep the vectors right, at the cost of calls.

// leaseKind is the kind of the lease documents in the control index.
const leaseKind = "embed"

type leaseDoc struct {
	Kind     string `json:"kind"`
	Holder   string `json:"holder"`
	Deadline int64  `json:"deadline"`
}

// leases are the leases a replica holds, by control index and id, with the version it
// last wrote, so that it can release them when it stops.
type leases struct {
	mu   sync.Mutex
	held map[[2]string]controlindex.Versioned
}

// hold answers whether holder may work on (names, embedder) until now+ttl, taking or
// renewing the lease: false when another replica holds it.
func (l *leases) hold(ctx context.Context, c *controlindex.Store, names esnames.Index, embedder, holder string, now time.Time, ttl time.Duration) (bool, error) {
	id := leaseKind + "." + embedder
	cur, v, err := controlindex.Read[leaseDoc](ctx, c, names, id)
	if err != nil {
		return false, err
	}
	if !Free(cur.Holder, cur.Deadline, holder, now) {
		return false, nil
	}
	next := leaseDoc{Kind: leaseKind, Holder: holder, Deadline: now.Add(ttl).UnixMilli()}
	nv, err := c.Put(ctx, names.Control(), id, v, next)
	if errors.Is(err, es.ErrConflict) {
		return false, nil // another replica took it first
	}
	if err != nil {
		return false, fmt.Errorf("taking the embedding lease %s of %s: %w", id, names.Alias(), err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.held == nil {
		l.held = map[[2]string]controlindex.Versioned{}
	}
	l.held[[2]string{names.Control(), id}] = nv
	return true, nil
}

// releaseAll gives up every lease still held as last written: one another replica took
// meanwhile fails its guard and stays that replica's.
func (l *leases) releaseAll(ctx context.Context, c *controlindex.Store) error {
	l.mu.Lock()
	held := l.held
	l.held = nil
	l.mu.Unlock()
	var errs []error
	for key, v := range held {
		_, err := c.Put(ctx, key[0], key[1], v, leaseDoc{Kind: leaseKind})
		if err != nil && !errors.Is(err, es.ErrConflict) {
			errs = append(errs, fmt.Errorf("releasing the embedding lease %s: %w", key[1], err))
		}
	}
	return errors.Join(errs...)
}

// Free: a lease is free for holder when holder has it, nobody does, or its deadline
// passed.
func Free(current string, deadline int64, holder string, now time.Time) bool {
	return current == "" || current == holder || deadline < now.UnixMilli()
}
