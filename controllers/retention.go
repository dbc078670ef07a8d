package controllers

import (
	"context"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// RetentionInterval is how often the events retention runs for one SearchIndex. The
// reconciler requeues a Ready index every RecordsRefresh, so the run comes at most
// that much later.
const RetentionInterval = time.Hour

// retentionRuns remembers, per SearchIndex, when retention last ran in this process. A
// restart runs it again at once, which is harmless: every step is idempotent.
type retentionRuns struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// claim reports whether retention of stem is due at now, and if so records the run.
func (r *retentionRuns) claim(stem string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]time.Time{}
	}
	if last, ok := r.last[stem]; ok && now.Sub(last) < RetentionInterval {
		return false
	}
	r.last[stem] = now
	return true
}

// release forgets a failed run, so the next reconcile tries again.
func (r *retentionRuns) release(stem string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.last, stem)
}

// applyRetention deletes the events, search logs, orders, visitor hashes and daily control documents
// the contract keeps no longer (see events.Retention), at most once an interval. It is
// best effort: a failure is logged and retried on the next reconcile.
func (r *SearchIndexReconciler) applyRetention(ctx context.Context, names esnames.Index) {
	now := time.Now()
	if r.Options.Clock != nil {
		now = r.Options.Clock.Now()
	}
	if !r.retention.claim(names.Stem(), now) {
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
