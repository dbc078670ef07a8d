package embedding

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// One replica at a time embeds an embedder's records: it holds the control document
// "embed.<name>" of the index until its deadline, renewed at each pass. Another takes
// over once the deadline passed (the holder crashed or stalled); should two ever work
// at once, the guarded updates keep the vectors right, at the cost of calls.

// leaseKind is the kind of the lease documents in the control index.
const leaseKind = "embed"

type leaseDoc struct {
	Kind     string `json:"kind"`
	Holder   string `json:"holder"`
	Deadline int64  `json:"deadline"`
}

// Held answers whether holder may work on (names, embedder) until now+ttl, taking or
// renewing the lease: false when another replica holds it.
func holdLease(ctx context.Context, c *controlindex.Store, names esnames.Index, embedder, holder string, now time.Time, ttl time.Duration) (bool, error) {
	id := leaseKind + "." + embedder
	cur, v, err := controlindex.Read[leaseDoc](ctx, c, names, id)
	if err != nil {
		return false, err
	}
	if !Free(cur.Holder, cur.Deadline, holder, now) {
		return false, nil
	}
	next := leaseDoc{Kind: leaseKind, Holder: holder, Deadline: now.Add(ttl).UnixMilli()}
	if _, err := c.Put(ctx, names.Control(), id, v, next); err != nil {
		if errors.Is(err, es.ErrConflict) {
			return false, nil // another replica took it first
		}
		return false, fmt.Errorf("taking the embedding lease %s of %s: %w", id, names.Alias(), err)
	}
	return true, nil
}

// Free: a lease is free for holder when holder has it, nobody does, or its deadline
// passed.
func Free(current string, deadline int64, holder string, now time.Time) bool {
	return current == "" || current == holder || deadline < now.UnixMilli()
}
