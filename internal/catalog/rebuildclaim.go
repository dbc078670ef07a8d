package catalog

import (
	"context"
	"errors"
	"fmt"
	"time"

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
func (s *Service) claimRebuild(ctx context.Context, t Target, want string) (*rebuildRun, error) {
	for attempt := 0; ; attempt++ {
		run, err := s.claimStep(ctx, t, want)
		if err != nil || run != nil {
			return run, err
		}
		if err := wait.Sleep(ctx, wait.Backoff(attempt, 50*time.Millisecond, time.Second)); err != nil {
			return nil, err
		}
	}
}

// claimStep takes one step of the claim; no run and no error means: look again.
func (s *Service) claimStep(ctx context.Context, t Target, want string) (*rebuildRun, error) {
	d, v, err := s.getRebuild(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	alias, err := s.aliasTarget(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	if alias == "" {
		return nil, fmt.Errorf("rebuilding %s: the alias points at no index", t.Names.Alias())
	}
	w := rebuildWorld{found: v.Found, alias: alias, want: want, now: s.cfg.Now()}
	if v.Found {
		if w.targetExists, err = s.idx.Exists(ctx, d.Target); err != nil {
			return nil, err
		}
	}
	switch decideRebuild(d, w) {
	case rebuildWait:
		return nil, nil
	case rebuildSettle:
		if err := s.settleRebuild(ctx, t.Names, d, v); err != nil {
			return nil, err
		}
		if d.SettingsHash == want {
			return nil, errAlreadyBuilt
		}
		return nil, nil
	case rebuildRestart:
		return nil, s.dropRebuild(ctx, t.Names, d, v)
	case rebuildResume:
		return s.takeOver(ctx, t, d, v)
	}
	return s.startRebuild(ctx, t, want, alias)
}

// takeOver makes this run the owner of a lapsed checkpoint.
func (s *Service) takeOver(ctx context.Context, t Target, d rebuildDoc, v controlindex.Versioned) (*rebuildRun, error) {
	now := s.cfg.Now()
	d.Owner, d.Deadline, d.UpdatedAt = newOwnerID(), millis(now.Add(s.cfg.BuildLease)), millis(now)
	if _, err := s.docs.Put(ctx, t.Names.Control(), rebuildDocID, v, d); err != nil {
		if errors.Is(err, es.ErrConflict) { // another run was quicker
			return nil, nil
		}
		return nil, err
	}
	return &rebuildRun{lease: newRebuildLease(s, t.Names, d), doc: d, resumed: true}, nil
}

// startRebuild notes the mark and the count of source, creates the target and the
// checkpoint. The mark is noted before the first page is read.
func (s *Service) startRebuild(ctx context.Context, t Target, want, source string) (*rebuildRun, error) {
	st, _, err := s.loadState(ctx, t.Names)
	if err != nil {
		return nil, err
	}
	now := s.cfg.Now()
	d := rebuildDoc{Kind: kindRebuild, SettingsHash: want, Source: source, Mark: st.Prune(now).Indexed(),
		Owner: newOwnerID(), Deadline: millis(now.Add(s.cfg.BuildLease)), CreatedAt: millis(now), UpdatedAt: millis(now)}
	if d.Total, err = s.count(ctx, source); err != nil {
		return nil, err
	}
	if d.Target, err = s.newPhysical(ctx, t, kindRebuild, d.Owner); err != nil {
		return nil, err
	}
	if _, err := s.docs.Put(ctx, t.Names.Control(), rebuildDocID, controlindex.Versioned{}, d); err != nil {
		s.deleteIndex(ctx, d.Target)
		if errors.Is(err, es.ErrConflict) { // another run started one first
			return nil, nil
		}
		return nil, err
	}
	return &rebuildRun{lease: newRebuildLease(s, t.Names, d), doc: d}, nil
}
