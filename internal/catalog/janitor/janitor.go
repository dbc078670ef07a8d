// Package janitor removes what crashed or abandoned catalog work left behind. It runs in
// the operator, once per SearchIndex reconcile (leader-elected, so one at a time per
// index), and removes:
//   - stages without activity for Config.StageTTL (open ones with their index), aborted
//     ones, and committed ones whose receipt was kept for Config.StageTTL (stage.Sweep);
//   - physical indices not behind the alias and not held by a live build lease or stage:
//     those the catalog made (after a grace of one build lease from their creation) and
//     older generations than the alias's (left by a crash between swap and delete);
//   - idempotency keys older than Config.IdempotencyTTL, and expired build leases
//     (catalog.Service.ExpireKeys, SweepBuild);
//   - a rebuild checkpoint whose lease lapsed, when it is stale (other settings than
//     wanted, its source replaced, its target gone: dropped with its target) or its
//     swap finished (settled). A lapsed checkpoint that a rebuild can resume keeps its
//     target, however long the operator was away (rebuild.Sweep).
package janitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/rebuild"
	"github.com/aislehq/aisle/internal/catalog/stage"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexlifecycle"
)

// Sweep cleans up after crashed or abandoned work on one SearchIndex; settingsHash is
// the hash of the settings the index should have.
func Sweep(ctx context.Context, c *catalog.Service, names esnames.Index, settingsHash string) error {
	target, err := c.AliasTarget(ctx, names)
	if err != nil || target == "" {
		return err
	}
	now := c.Config().Now()
	indices, err := c.Indices().List(ctx, names.PhysicalPattern())
	if err != nil {
		return err
	}
	held, rebuilding, err := sweepControl(ctx, c, names, target, now)
	if err != nil {
		return err
	}
	if rebuilding {
		kept, err := rebuild.Sweep(ctx, c, names, target, settingsHash, now, indices)
		if err != nil {
			return err
		}
		held[kept] = true
	}
	deleteLeftovers(ctx, c, names, target, now, indices, held)
	return nil
}

// deleteLeftovers deletes the physical indices that nothing holds: the catalog's once
// their grace has passed, others when older than target.
func deleteLeftovers(ctx context.Context, c *catalog.Service, names esnames.Index, target string, now time.Time, indices map[string]types.IndexState, held map[string]bool) {
	targetGen, _ := names.Generation(target)
	grace := c.Config().BuildLease.Milliseconds()
	for name, state := range indices {
		if name == target || held[name] {
			continue
		}
		gen, _ := names.Generation(name)
		made := indexlifecycle.MetaOf(state).Catalog
		if (made != nil && made.CreatedAt+grace < now.UnixMilli()) || (made == nil && gen < targetGen) {
			c.DeleteIndex(ctx, name)
		}
	}
}

// sweepControl removes stale control documents and returns the physical indices that
// live stages and builds hold, and whether a rebuild checkpoint exists.
func sweepControl(ctx context.Context, c *catalog.Service, names esnames.Index, target string, now time.Time) (map[string]bool, bool, error) {
	control := names.Control()
	// The control index is made by the first write; the janitor never creates it.
	res, err := c.Client().Search().Index(control).Size(10000).
		Query(&types.Query{Terms: &types.TermsQuery{TermsQuery: map[string]types.TermsQueryField{
			"kind": []types.FieldValue{stage.Kind, catalog.KindBuild, rebuild.Kind}}}}).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return map[string]bool{}, false, nil
		}
		return nil, false, fmt.Errorf("listing stages and builds of %s: %w", names.Alias(), err)
	}
	held, rebuilding := map[string]bool{}, false
	for _, hit := range res.Hits.Hits {
		var doc struct {
			Kind string `json:"kind"`
		}
		if hit.Id_ == nil || json.Unmarshal(hit.Source_, &doc) != nil {
			continue
		}
		var physical string
		var holds bool
		switch doc.Kind {
		case rebuild.Kind:
			rebuilding = true
		case catalog.KindBuild:
			physical, holds = c.SweepBuild(ctx, control, *hit.Id_, hit.Source_, now)
		case stage.Kind:
			physical, holds = stage.Sweep(ctx, c, control, target, *hit.Id_, hit.Source_, now)
		}
		if holds {
			held[physical] = true
		}
	}
	return held, rebuilding, c.ExpireKeys(ctx, control, now)
}
