package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/esnames"
)

// Build leases: a PUT /records fill holds "build.<physical>" in the control index and
// renews its deadline while it runs. The janitor deletes a physical index that is not
// behind the alias only when no live lease (build or stage) holds it, so a crashed fill
// is cleaned up one lease later and a running one never.

// KindBuild is the kind of build lease documents.
const KindBuild = "build"

type buildDoc struct {
	Kind      string `json:"kind"`
	Physical  string `json:"physical"`
	CreatedAt int64  `json:"createdAt"`
	Deadline  int64  `json:"deadline"`
}

func buildID(physical string) string { return KindBuild + "." + physical }

// Replace replaces the whole catalog with records (PUT /records): it fills a new
// physical index, then swaps it behind the alias. Readers see the old catalog until the
// swap and the new one after it, never a mix.
func (s *Service) Replace(ctx context.Context, t Target, records []Record) (Receipt, error) {
	if err := s.CheckPlanTotal(ctx, t, int64(len(uniqueIDs(records)))); err != nil {
		return Receipt{}, err
	}
	if err := checkSettings(t, records); err != nil {
		return Receipt{}, err
	}
	physical, err := s.NewPhysical(ctx, t, "replace", NewOwner())
	if err != nil {
		return Receipt{}, err
	}
	leaseCtx, stop := context.WithCancel(ctx)
	defer stop()
	if err := s.holdBuild(leaseCtx, t.Names, physical); err != nil {
		s.DeleteIndex(ctx, physical)
		return Receipt{}, err
	}
	defer s.dropBuild(context.WithoutCancel(ctx), t.Names, physical)
	if err := s.Fill(ctx, physical, records); err != nil {
		s.DeleteIndex(ctx, physical)
		return Receipt{}, err
	}
	r, err := s.Swap(ctx, t.Names, physical, NewOwner(), func(State) error { return nil })
	if err != nil {
		s.DeleteIndex(ctx, physical)
		return Receipt{}, err
	}
	return r, nil
}

// Fill writes records into a physical index without versions (a replacement's records
// take its revision, State.Bases) in FillBatch-sized _bulk requests, FillWorkers at a
// time, then refreshes it.
func (s *Service) Fill(ctx context.Context, physical string, records []Record) error {
	ops := plainOps(records)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(FillWorkers)
	for start := 0; start < len(ops); start += FillBatch {
		chunk := ops[start:min(start+FillBatch, len(ops))]
		offset := start
		g.Go(func() error { return s.BulkAt(gctx, physical, chunk, offset) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return s.Refresh(ctx, physical)
}

// holdBuild writes the build lease and renews it until ctx ends.
func (s *Service) holdBuild(ctx context.Context, names esnames.Index, physical string) error {
	put := func(ctx context.Context) error {
		now := s.cfg.Now()
		doc := buildDoc{Kind: KindBuild, Physical: physical, CreatedAt: millis(now), Deadline: millis(now.Add(s.cfg.BuildLease))}
		return s.docs.Overwrite(ctx, names.Control(), buildID(physical), doc)
	}
	if err := put(ctx); err != nil {
		return fmt.Errorf("taking the build lease of %s: %w", physical, err)
	}
	go wait.Every(ctx, s.cfg.BuildLease/3, func() bool {
		_ = put(ctx)
		return true
	})
	return nil
}

func (s *Service) dropBuild(ctx context.Context, names esnames.Index, physical string) {
	_ = s.docs.Delete(ctx, names.Control(), buildID(physical), controlindex.Versioned{})
}

// SweepBuild is the janitor's step for the build lease document id (source src) of
// control index control: a live lease holds its physical index (returned), an expired
// one is deleted.
func (s *Service) SweepBuild(ctx context.Context, control, id string, src json.RawMessage, now time.Time) (string, bool) {
	var b buildDoc
	_ = json.Unmarshal(src, &b)
	if b.Deadline > millis(now) {
		return b.Physical, true
	}
	_ = s.docs.Delete(ctx, control, id, controlindex.Versioned{})
	return "", false
}
