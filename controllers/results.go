package controllers

import (
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

// Results gathers what the steps of one reconcile ask of the next, as ECK's
// reconciler.Results does: each step says how soon it wants to look again, and the
// reconcile requeues at the soonest of them.
type Results struct {
	requeueAfter time.Duration
}

// Requeue asks for a reconcile within d; 0 (or less) asks nothing.
func (r Results) Requeue(d time.Duration) Results {
	if d > 0 && (r.requeueAfter == 0 || d < r.requeueAfter) {
		r.requeueAfter = d
	}
	return r
}

// Result is the controller-runtime result of the steps' asks.
func (r Results) Result() ctrl.Result {
	return ctrl.Result{RequeueAfter: r.requeueAfter}
}
