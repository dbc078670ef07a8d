package catalog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexlifecycle"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// MetaKey is the key under the physical index's mapping _meta.aisle that marks an index
// filled by the catalog write path (a replacement or a stage), for the janitor.
const MetaKey = "catalog"

// AliasTarget returns the physical index behind the alias ("" when there is none).
func (s *Service) AliasTarget(ctx context.Context, names esnames.Index) (string, error) {
	return s.idx.AliasTarget(ctx, names.Alias())
}

// NewPhysical creates an empty physical index for a replacement, with the mapping the
// operator would build from the settings, and returns its name. Its generation is above
// the revision document's counter and every physical index that exists
// (indexlifecycle.Next).
func (s *Service) NewPhysical(ctx context.Context, t Target, kind, id string) (string, error) {
	raw, err := s.physicalBody(t, kind, id)
	if err != nil {
		return "", err
	}
	for attempt := 0; attempt < 5; attempt++ {
		indices, err := s.idx.List(ctx, t.Names.PhysicalPattern())
		if err != nil {
			return "", err
		}
		highest := indexlifecycle.Highest(t.Names, indexlifecycle.Names(indices))
		var next int64
		if _, err := s.Update(ctx, t.Names, func(st State) (State, error) {
			st, next = st.NextGeneration(highest)
			return st, nil
		}); err != nil {
			return "", err
		}
		physical := t.Names.Physical(next)
		err = s.idx.Create(ctx, physical, raw)
		if err == nil {
			return physical, nil
		}
		if !errors.Is(err, es.ErrConflict) {
			return "", err
		}
		// Made meanwhile by someone not counting in our state: look again.
	}
	return "", fmt.Errorf("creating a physical index for %s: every generation tried exists", t.Names.Alias())
}

// physicalBody is the body of a new physical index of t: the operator's, marked in its
// mapping's _meta as the catalog's (MetaKey), for the janitor.
func (s *Service) physicalBody(t Target, kind, id string) ([]byte, error) {
	body, err := indexmapping.Build(t.Settings)
	if err != nil {
		return nil, fmt.Errorf("deriving the index mapping: %w", err)
	}
	meta, _ := body.Mappings["_meta"].(map[string]any)
	if aisle, ok := meta["aisle"].(map[string]any); ok {
		aisle[MetaKey] = map[string]any{"kind": kind, "id": id, "createdAt": millis(s.cfg.Now())}
	}
	raw, err := body.JSON()
	if err != nil {
		return nil, fmt.Errorf("encoding the index body: %w", err)
	}
	return raw, nil
}

// crashPoint is called after each step of a swap that leaves state behind; tests make
// it stop the swap there, as a crash would.
var crashPoint = func(step string) {}

// Swap switches the alias to physical: fence, drain, check, allocate the swap's
// revision, move the alias in one call, unfence, delete the old index. check sees the
// drained state under the fence and may refuse the swap. owner names the fence: a
// stage commit uses one derived from the stage, so that the takeover of a crashed
// commit renews the dead fence instead of waiting for it to expire.
func (s *Service) Swap(ctx context.Context, names esnames.Index, physical, owner string, check func(State) error) (Receipt, error) {
	if err := s.Fence(ctx, names, owner); err != nil {
		return Receipt{}, err
	}
	crashPoint("fenced")
	lease, err := s.BeginSwap(ctx, names, physical, owner, check)
	if err != nil {
		s.Unfence(context.WithoutCancel(ctx), names, owner, 0)
		return Receipt{}, err
	}
	crashPoint("swap-begun")
	old, err := s.MoveAlias(ctx, names, physical)
	if err != nil {
		s.Unfence(context.WithoutCancel(ctx), names, owner, lease.Rev)
		return Receipt{}, err
	}
	crashPoint("alias-moved")
	st, err := s.EndSwap(ctx, names, owner, lease.Rev, old)
	if err != nil {
		return Receipt{}, fmt.Errorf("completing the swap of %s: %w", names.Alias(), err)
	}
	crashPoint("swap-completed")
	if old != "" && old != physical {
		s.DeleteIndex(ctx, old)
	}
	return s.ReceiptAt(ctx, names, lease.Rev, st)
}

// Fence sets owner's fence and waits until no write is pending, renewing it meanwhile.
func (s *Service) Fence(ctx context.Context, names esnames.Index, owner string) error {
	err := wait.For(ctx, s.cfg.FenceLease, func() error {
		_, err := s.Update(ctx, names, func(st State) (State, error) {
			return st.SetFence(s.cfg.Now(), owner, s.cfg.FenceLease)
		})
		return err
	}, ErrSwapBusy)
	if err != nil {
		return fmt.Errorf("fencing %s: %w", names.Alias(), err)
	}
	err = wait.For(ctx, s.cfg.WriteLease+time.Second, func() error {
		st, err := s.Update(ctx, names, func(st State) (State, error) {
			return st.SetFence(s.cfg.Now(), owner, s.cfg.FenceLease)
		})
		if err == nil && len(st.Pending) > 0 {
			return ErrNotDrained
		}
		return err
	}, ErrNotDrained)
	if err != nil {
		s.Unfence(context.WithoutCancel(ctx), names, owner, 0)
		return fmt.Errorf("waiting for the writes to %s: %w", names.Alias(), err)
	}
	return nil
}

// Unfence clears owner's fence after a failed swap, releasing its revision if any.
func (s *Service) Unfence(ctx context.Context, names esnames.Index, owner string, rev int64) {
	_, _ = s.Update(ctx, names, func(st State) (State, error) {
		if rev > 0 {
			st, _ = st.Complete(s.cfg.Now(), rev, false)
		}
		return st.ClearFence(owner), nil
	})
}

// BeginSwap allocates the revision of owner's swap to physical, under its fence with
// no write pending, once check accepts the state (pruned); on an error the fence stays,
// for the caller to Unfence.
func (s *Service) BeginSwap(ctx context.Context, names esnames.Index, physical, owner string, check func(State) error) (Lease, error) {
	var lease Lease
	_, err := s.Update(ctx, names, func(st State) (State, error) {
		if err := check(st.Prune(s.cfg.Now())); err != nil {
			return st, err
		}
		next, l, err := st.BeginSwap(s.cfg.Now(), owner, physical, s.cfg.WriteLease)
		lease = l
		return next, err
	})
	return lease, err
}

// EndSwap completes the swap's revision rev as a write, once the alias has moved off
// old: it clears owner's fence and forgets old's base revision.
func (s *Service) EndSwap(ctx context.Context, names esnames.Index, owner string, rev int64, old string) (State, error) {
	return s.Update(ctx, names, func(st State) (State, error) {
		next, err := st.Complete(s.cfg.Now(), rev, true)
		return next.ClearFence(owner).DropBase(old), err
	})
}

// MoveAlias points the alias at physical in one POST /_aliases and returns the index
// it pointed at before.
func (s *Service) MoveAlias(ctx context.Context, names esnames.Index, physical string) (string, error) {
	old, err := s.AliasTarget(ctx, names)
	if err != nil {
		return "", err
	}
	if err := s.idx.MoveAlias(ctx, names.Alias(), old, physical); err != nil {
		return "", err
	}
	s.maps.setTarget(names.Alias(), physical)
	return old, nil
}

// DeleteIndex deletes a physical index; failures are left to the janitor.
func (s *Service) DeleteIndex(ctx context.Context, name string) {
	_ = s.idx.Delete(context.WithoutCancel(ctx), name)
}

// Refresh makes a filled index searchable before it goes behind the alias.
func (s *Service) Refresh(ctx context.Context, name string) error {
	if _, err := s.es.Indices.Refresh().Index(name).Do(ctx); err != nil {
		return fmt.Errorf("refreshing %s: %w", name, es.Classify(err))
	}
	return nil
}

func NewOwner() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
