package controllers

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// RetentionInterval is how often the events retention runs for one SearchIndex. The
// reconciler requeues a Ready index every RecordsRefresh, so the run comes at most
// that much later.
const RetentionInterval = time.Hour

// retentionDue reports whether retention is due at now after its last run (ran: there
// was one): once an interval.
func retentionDue(last time.Time, ran bool, now time.Time) bool {
	return !ran || now.Sub(last) >= RetentionInterval
}

// applyRetention deletes the events, search logs, orders, visitor hashes and daily control documents
// the contract keeps no longer (see events.Retention), at most once an interval. It is
// best effort: a failure is logged and retried on the next reconcile.
func (r *SearchIndexReconciler) applyRetention(ctx context.Context, names esnames.Index) {
	now := r.Options.Clock.Now()
	due := func(last time.Time, ran bool) bool { return retentionDue(last, ran, now) }
	if !r.retention.claim(names.Stem(), due, now) {
		return
	}
	rep, err := (&events.Retention{ES: r.Backend.ES}).Run(ctx, names, now)
	if err != nil {
		r.retention.release(names.Stem())
		log.FromContext(ctx).Error(err, "applying events retention")
		return
	}
	log.FromContext(ctx).V(1).Info("events retention applied", "eventIndices", rep.EventIndices,
		"searchIndices", rep.SearchIndices,
		"orders", rep.Orders, "visitorHashes", rep.VisitorsRemoved, "controlDocs", rep.ControlDocs)
}
