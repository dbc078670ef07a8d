package controllers

import (
	"context"
	"fmt"
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

// refreshSignals computes the index's popularity and re-ranking from its events when
// due. Best effort: a failure is logged and retried on the next reconcile, and searches
// keep the signals of the last refresh meanwhile.
func (r *SearchIndexReconciler) refreshSignals(ctx context.Context, names esnames.Index, s searchv1alpha1.IndexSettings) {
	now := r.Options.Clock.Now()
	due := func(last signalsRun, ran bool) bool { return signalsDue(last, ran, s, now, r.Options.SignalsRefresh) }
	if !r.signals.claim(names.Stem(), due, signalsRun{at: now, settings: learningKey(s)}) {
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
