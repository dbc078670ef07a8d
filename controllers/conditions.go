package controllers

import (
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// readiness is the Ready condition a reconcile arrives at.
type readiness struct {
	status  metav1.ConditionStatus
	reason  string
	message string
}

func ready(message string) readiness {
	return readiness{status: metav1.ConditionTrue, reason: searchv1alpha1.ReasonReconciled, message: message}
}

func notReady(reason, message string) readiness {
	return readiness{status: metav1.ConditionFalse, reason: reason, message: message}
}

// setReady writes the Ready condition and emits an Event when its status or reason
// changes, so Events mark transitions rather than every reconcile.
func setReady(rec events.EventRecorder, obj runtime.Object, conds *[]metav1.Condition, generation int64, r readiness) {
	old := meta.FindStatusCondition(*conds, searchv1alpha1.ConditionReady)
	changed := old == nil || old.Status != r.status || old.Reason != r.reason
	meta.SetStatusCondition(conds, metav1.Condition{
		Type: searchv1alpha1.ConditionReady, Status: r.status, Reason: r.reason,
		Message: r.message, ObservedGeneration: generation,
	})
	if !changed {
		return
	}
	eventType := "Normal"
	if r.status != metav1.ConditionTrue {
		eventType = "Warning"
	}
	rec.Eventf(obj, nil, eventType, r.reason, "Reconcile", "%s", r.message)
}

// conflictRetry is how soon a reconcile that lost a write race runs again.
const conflictRetry = 200 * time.Millisecond

// retryConflicts turns a write conflict (the reconcile read a stale object) into a quiet
// requeue: the next reconcile reads the newer object. Other errors go to the rate limiter.
func retryConflicts(result ctrl.Result, err error) (ctrl.Result, error) {
	if err != nil && apierrors.IsConflict(err) {
		return ctrl.Result{RequeueAfter: conflictRetry}, nil
	}
	return result, err
}
