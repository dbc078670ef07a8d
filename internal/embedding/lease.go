package embedding

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// One replica at a time embeds an embedder's records: it holds the control document
// "embed.<name>" of the index until its deadline, renewed at each pass and, while a pass
// runs, every third of its length (keepLease), so that a slow embedder's pass keeps it.
// Another replica takes over once the deadline passed (the holder crashed or stalled), or
// at once when the holder stopped cleanly and released it (a restarted replica has a new
// name and would otherwise wait for its own old lease). Should two ever work at once,
// the guarded updates keep the vectors right, at the cost of calls.

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

// PassGoesOn says whether a pass goes on after a renewal of its lease: yes when renewed;
// no when another replica holds it now (lost); after a renewal that failed, only while
// the deadline last written lasts past the next renewal (at next), since past it another
// replica may be at work on the same records.
func PassGoesOn(renewed, lost bool, deadline, next time.Time) bool {
	switch {
	case renewed:
		return true
	case lost:
		return false
	}
	return deadline.After(next)
}

// renewEvery is how often a pass renews its lease: three tries before it lapses.
func renewEvery(ttl time.Duration) time.Duration { return ttl / 3 }

// keepLease renews holder's lease on (names, embedder), taken at taken, while a pass
// runs, so that a pass outlasting it (a slow embedder, its retries) keeps its records
// rather than another replica embedding them again. The context it returns ends when
// PassGoesOn says no; stop ends the renewals.
func (s *Service) keepLease(ctx context.Context, names esnames.Index, embedder string, taken time.Time) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	every := renewEvery(s.cfg.Lease)
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		deadline := taken.Add(s.cfg.Lease)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now := time.Now()
			held, err := s.leases.hold(ctx, s.control, names, embedder, s.cfg.Holder, now, s.cfg.Lease)
			if err != nil && ctx.Err() == nil {
				s.cfg.Logger.WarnContext(ctx, "renewing an embedding lease", slog.String("index", names.Alias()),
					slog.String("embedder", embedder), slog.Any("error", err))
			}
			if held {
				deadline = now.Add(s.cfg.Lease)
			}
			if !PassGoesOn(held, err == nil && !held, deadline, now.Add(every)) {
				cancel()
				return
			}
		}
	}()
	return ctx, func() { cancel(); <-done }
}
