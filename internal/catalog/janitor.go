package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/conflicts"

	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
)

// The janitor runs in the operator, once per SearchIndex reconcile (leader-elected, so
// one at a time per index). It removes:
//   - stages without activity for Config.StageTTL (open ones with their index), aborted
//     ones, and committed ones whose receipt was kept for Config.StageTTL;
//   - physical indices not behind the alias and not held by a live build lease or stage:
//     those the catalog made (after a grace of one build lease from their creation) and
//     older generations than the alias's (left by a crash between swap and delete);
//   - idempotency keys older than Config.IdempotencyTTL, and expired build leases;
//   - a rebuild checkpoint whose lease lapsed, when it is stale (other settings than
//     wanted, its source replaced, its target gone: dropped with its target) or its
//     swap finished (settled). A lapsed checkpoint that a rebuild can resume keeps its
//     target, however long the operator was away.

// Sweep cleans up after crashed or abandoned work on one SearchIndex; settingsHash is
// the hash of the settings the index should have.
func (s *Service) Sweep(ctx context.Context, names esnames.Index, settingsHash string) error {
	target, err := s.aliasTarget(ctx, names)
	if err != nil || target == "" {
		return err
	}
	now := s.cfg.Now()
	indices, err := s.idx.List(ctx, names.PhysicalPattern())
	if err != nil {
		return err
	}
	held, rebuilding, err := s.sweepControl(ctx, names, target, now)
	if err != nil {
		return err
	}
	if rebuilding {
		kept, err := s.sweepRebuild(ctx, names, rebuildWorld{alias: target, want: settingsHash, now: now}, indices)
		if err != nil {
			return err
		}
		held[kept] = true
	}
	targetGen, _ := names.Generation(target)
	for name, state := range indices {
		if name == target || held[name] {
			continue
		}
		gen, _ := names.Generation(name)
		created, ours := catalogMeta(state)
		if (ours && created+s.cfg.BuildLease.Milliseconds() < millis(now)) || (!ours && gen < targetGen) {
			s.deleteIndex(ctx, name)
		}
	}
	return nil
}

// sweepRebuild settles or drops a lapsed rebuild checkpoint as decideRebuild says, and
// returns the target that a live or resumable one holds.
func (s *Service) sweepRebuild(ctx context.Context, names esnames.Index, w rebuildWorld, indices map[string]types.IndexState) (string, error) {
	d, v, err := s.getRebuild(ctx, names)
	if err != nil || !v.Found {
		return "", err
	}
	w.found = true
	_, w.targetExists = indices[d.Target]
	switch decideRebuild(d, w) {
	case rebuildSettle:
		return "", s.settleRebuild(ctx, names, d, v)
	case rebuildRestart:
		return "", s.dropRebuild(ctx, names, d, v)
	}
	return d.Target, nil
}

// sweepControl removes stale control documents and returns the physical indices that
// live stages and builds hold, and whether a rebuild checkpoint exists.
func (s *Service) sweepControl(ctx context.Context, names esnames.Index, target string, now time.Time) (map[string]bool, bool, error) {
	control := names.Control()
	// The control index is made by the first write; the janitor never creates it.
	res, err := s.es.Search().Index(control).Size(10000).
		Query(&types.Query{Terms: &types.TermsQuery{TermsQuery: map[string]types.TermsQueryField{
			"kind": []types.FieldValue{kindStage, kindBuild, kindRebuild}}}}).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return map[string]bool{}, false, nil
		}
		return nil, false, fmt.Errorf("listing stages and builds of %s: %w", names.Alias(), err)
	}
	held, rebuilding := map[string]bool{}, false
	for _, hit := range res.Hits.Hits {
		var doc stageDoc
		if hit.Id_ == nil || json.Unmarshal(hit.Source_, &doc) != nil {
			continue
		}
		switch doc.Kind {
		case kindRebuild:
			rebuilding = true
		case kindBuild:
			var b buildDoc
			_ = json.Unmarshal(hit.Source_, &b)
			if b.Deadline > millis(now) {
				held[b.Physical] = true
			} else {
				_ = s.docs.Delete(ctx, control, *hit.Id_, controlindex.Versioned{})
			}
		case kindStage:
			d := doc
			if !d.abandoned(now, s.cfg.StageTTL) {
				held[d.Physical] = true
				continue
			}
			if d.Physical != target {
				s.deleteIndex(ctx, d.Physical)
			}
			_ = s.docs.Delete(ctx, control, *hit.Id_, controlindex.Versioned{})
		}
	}
	return held, rebuilding, s.expireKeys(ctx, control, now)
}

// expireKeys deletes idempotency keys older than their TTL.
func (s *Service) expireKeys(ctx context.Context, control string, now time.Time) error {
	before := strconv.FormatInt(millis(now.Add(-s.cfg.IdempotencyTTL)), 10)
	q := &types.Query{Bool: &types.BoolQuery{Filter: []types.Query{
		{Term: map[string]types.TermQuery{"kind": {Value: kindIdem}}},
		{Range: map[string]types.RangeQuery{"createdAt": types.NumberRangeQuery{Lt: floatPtr(before)}}},
	}}}
	_, err := s.es.DeleteByQuery(control).Query(q).Conflicts(conflicts.Proceed).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrNotFound) {
		return fmt.Errorf("expiring idempotency keys in %s: %w", control, err)
	}
	return nil
}

func floatPtr(v string) *types.Float64 {
	f, _ := strconv.ParseFloat(v, 64)
	x := types.Float64(f)
	return &x
}

// catalogMeta reads _meta.aisle.catalog: whether the catalog made the index, and when.
func catalogMeta(state types.IndexState) (int64, bool) {
	if state.Mappings == nil {
		return 0, false
	}
	raw, ok := state.Mappings.Meta_["aisle"]
	if !ok {
		return 0, false
	}
	var meta struct {
		Catalog *struct {
			CreatedAt int64 `json:"createdAt"`
		} `json:"catalog"`
	}
	if json.Unmarshal(raw, &meta) != nil || meta.Catalog == nil {
		return 0, false
	}
	return meta.Catalog.CreatedAt, true
}
