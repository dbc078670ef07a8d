package rebuild

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/wait"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/es"
)

// errAlreadyBuilt: settling a finished swap showed the wanted settings are live.
var errAlreadyBuilt = errors.New("the index was already rebuilt with these settings")

// rebuildRun is a rebuild claimed by this run.
type rebuildRun struct {
	lease   *rebuildLease
	doc     rebuildDoc // the checkpoint as claimed
	resumed bool
}

// claimRebuild resumes the rebuild of t for settings hash want, or starts it, waiting
// while another run's lease is live.
func (r rebuilder) claimRebuild(ctx context.Context, t catalog.Target, want string) (*rebuildRun, error) {
	for attempt := 0; ; attempt++ {
		run, err := r.claimStep(ctx, t, want)
		if err != nil || run != nil {
			return run, err
		}
		if err := wait.Sleep(ctx, wait.Backoff(attempt, 50*time.Millisecond, time.Second)); err != nil {
			return nil, err
		}
	}
}

// claimStep takes one step of the claim; no run and no error means: look again.
func (r rebuilder) claimStep(ctx context.Context, t catalog.Target, want string) (*rebuildRun, error) {
	d, v, err := r.getRebuild(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	alias, err := r.cat.AliasTarget(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	if alias == "" {
		return nil, fmt.Errorf("rebuilding %s: the alias points at no index", t.Names.Alias())
	}
	w := rebuildWorld{found: v.Found, alias: alias, want: want, now: r.cfg.Now()}
	if v.Found {
		if w.targetExists, err = r.cat.Indices().Exists(ctx, d.Target); err != nil {
			return nil, err
		}
	}
	switch decideRebuild(d, w) {
	case rebuildWait:
		return nil, nil
	case rebuildSettle:
		if err := r.settleRebuild(ctx, t.Names, d, v); err != nil {
			return nil, err
		}
		if d.SettingsHash == want {
			return nil, errAlreadyBuilt
		}
		return nil, nil
	case rebuildRestart:
		return nil, r.dropRebuild(ctx, t.Names, d, v)
	case rebuildResume:
		return r.takeOver(ctx, t, d, v)
	}
	return r.startRebuild(ctx, t, want, alias)
}

// takeOver makes this run the owner of a lapsed checkpoint.
func (r rebuilder) takeOver(ctx context.Context, t catalog.Target, d rebuildDoc, v controlindex.Versioned) (*rebuildRun, error) {
	now := r.cfg.Now()
	d.Owner, d.Deadline, d.UpdatedAt = catalog.NewOwner(), now.Add(r.cfg.BuildLease).UnixMilli(), now.UnixMilli()
	if _, err := r.docs.Put(ctx, t.Names.Control(), rebuildDocID, v, d); err != nil {
		if errors.Is(err, es.ErrConflict) { // another run was quicker
			return nil, nil
		}
		return nil, err
	}
	return &rebuildRun{lease: newRebuildLease(r, t.Names, d), doc: d, resumed: true}, nil
}

// startRebuild notes the mark and the count of source, creates the target and the
// checkpoint. The mark is noted before the first page is read.
func (r rebuilder) startRebuild(ctx context.Context, t catalog.Target, want, source string) (*rebuildRun, error) {
	st, err := r.cat.ReadState(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	now := r.cfg.Now()
	d := rebuildDoc{Kind: Kind, SettingsHash: want, Source: source, Mark: st.Prune(now).Indexed(),
		Owner: catalog.NewOwner(), Deadline: now.Add(r.cfg.BuildLease).UnixMilli(), CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	if d.Total, err = r.cat.Count(ctx, source); err != nil {
		return nil, err
	}
	if d.Target, err = r.cat.NewPhysical(ctx, t, Kind, d.Owner); err != nil {
		return nil, err
	}
	if _, err := r.docs.Put(ctx, t.Names.Control(), rebuildDocID, controlindex.Versioned{}, d); err != nil {
		r.cat.DeleteIndex(ctx, d.Target)
		if errors.Is(err, es.ErrConflict) { // another run started one first
			return nil, nil
		}
		return nil, err
	}
	return &rebuildRun{lease: newRebuildLease(r, t.Names, d), doc: d}, nil
}
