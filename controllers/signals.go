package controllers

import (
	"context"
	"fmt"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/log"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/signals"
)

// DefaultSignalsRefresh is how often an index's signals (popularity, re-ranking) are
// computed again from its events.
const DefaultSignalsRefresh = time.Hour

// signalsRun is the last refresh of one index's signals in this process, and the
// learning settings it ran with.
type signalsRun struct {
	at       time.Time
	settings string
}

// signalsRuns remembers the refreshes per SearchIndex. A restart refreshes at once,
// which is harmless: a refresh overwrites what the last one wrote.
type signalsRuns struct {
	mu   sync.Mutex
	last map[string]signalsRun
}

// learningKey is what, changed, makes a refresh due at once.
func learningKey(s searchv1alpha1.IndexSettings) string {
	return fmt.Sprintf("%+v|%+v", relevance.PopularityOf(s), relevance.ReRankOf(s))
}

// signalsDue decides whether a refresh is due at now, after last, every interval:
// never while both learning settings are off; at once when they changed since.
func signalsDue(last signalsRun, ran bool, s searchv1alpha1.IndexSettings, now time.Time, interval time.Duration) bool {
	if !relevance.PopularityOf(s).Enabled && !relevance.ReRankOf(s).Enabled {
		return false
	}
	return !ran || last.settings != learningKey(s) || now.Sub(last.at) >= interval
}

// claim reports whether the refresh of stem is due, and if so records it.
func (r *signalsRuns) claim(stem string, s searchv1alpha1.IndexSettings, now time.Time, interval time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]signalsRun{}
	}
	last, ran := r.last[stem]
	if !signalsDue(last, ran, s, now, interval) {
		return false
	}
	r.last[stem] = signalsRun{at: now, settings: learningKey(s)}
	return true
}

// release forgets a failed refresh, so the next reconcile tries again.
func (r *signalsRuns) release(stem string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.last, stem)
}

// refreshSignals computes the index's popularity and re-ranking from its events when
// due. Best effort: a failure is logged and retried on the next reconcile, and searches
// keep the signals of the last refresh meanwhile.
func (r *SearchIndexReconciler) refreshSignals(ctx context.Context, names esnames.Index, s searchv1alpha1.IndexSettings) {
	now, interval := time.Now(), r.Options.SignalsRefresh
	if r.Options.Clock != nil {
		now = r.Options.Clock.Now()
	}
	if interval <= 0 {
		interval = DefaultSignalsRefresh
	}
	if !r.signals.claim(names.Stem(), s, now, interval) {
		return
	}
	ref := signals.Refresher{ES: r.Backend.ES, Searches: signals.SearchLog(r.Backend.ES)}
	rep, err := ref.Run(ctx, names, s, now)
	if err != nil {
		r.signals.release(names.Stem())
		log.FromContext(ctx).Error(err, "refreshing signals")
		return
	}
	log.FromContext(ctx).V(1).Info("signals refreshed", "popular", rep.Popular, "reRankedQueries", rep.ReRanked)
}
