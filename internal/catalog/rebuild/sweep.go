package rebuild

import (
	"context"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/esnames"
)

// Sweep is the janitor's step for the rebuild checkpoint of names: a lapsed one is
// settled (its swap finished) or dropped with its target (stale) as decideRebuild says.
// It returns the target that a live or resumable checkpoint holds ("" for none). alias
// is the index behind the alias, want the settings hash wanted, indices the physical
// indices that exist.
func Sweep(ctx context.Context, c *catalog.Service, names esnames.Index, alias, want string, now time.Time, indices map[string]types.IndexState) (string, error) {
	r := on(c)
	d, v, err := r.getRebuild(ctx, names)
	if err != nil || !v.Found {
		return "", err
	}
	w := rebuildWorld{found: true, alias: alias, want: want, now: now}
	_, w.targetExists = indices[d.Target]
	switch decideRebuild(d, w) {
	case rebuildSettle:
		return "", r.settleRebuild(ctx, names, d, v)
	case rebuildRestart:
		return "", r.dropRebuild(ctx, names, d, v)
	}
	return d.Target, nil
}
