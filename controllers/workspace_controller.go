package controllers

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// WorkspaceReconciler reports a Workspace's namespace, index count and key count.
type WorkspaceReconciler struct {
	client.Client
	Recorder events.EventRecorder
}

// +kubebuilder:rbac:groups=search.aisle.dev,resources=workspaces,verbs=get;list;watch
// +kubebuilder:rbac:groups=search.aisle.dev,resources=workspaces/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=search.aisle.dev,resources=apikeys,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=namespaces,verbs=get;list;watch

// Reconcile refreshes one Workspace's status.
func (r *WorkspaceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return retryConflicts(ctrl.Result{}, r.reconcile(ctx, req))
}

func (r *WorkspaceReconciler) reconcile(ctx context.Context, req ctrl.Request) error {
	ws := &searchv1alpha1.Workspace{}
	if err := r.Get(ctx, req.NamespacedName, ws); err != nil {
		return client.IgnoreNotFound(err)
	}
	before := ws.Status.DeepCopy()
	indexes, keys, err := r.count(ctx, ws.Name)
	if err != nil {
		return err
	}
	ws.Status.Indexes, ws.Status.APIKeys = indexes, keys
	rd, err := r.namespaceReadiness(ctx, ws.Name)
	if err != nil {
		return err
	}
	setReady(r.Recorder, ws, &ws.Status.Conditions, ws.Generation, rd)
	ws.Status.ObservedGeneration = ws.Generation
	if equality.Semantic.DeepEqual(before, &ws.Status) {
		return nil
	}
	if err := r.Status().Update(ctx, ws); err != nil {
		return fmt.Errorf("updating status: %w", err)
	}
	return nil
}

// count returns the SearchIndexes and APIKeys of the workspace that are not being deleted.
func (r *WorkspaceReconciler) count(ctx context.Context, namespace string) (int32, int32, error) {
	indexes := &searchv1alpha1.SearchIndexList{}
	if err := r.List(ctx, indexes, client.InNamespace(namespace)); err != nil {
		return 0, 0, fmt.Errorf("listing indexes: %w", err)
	}
	keys := &searchv1alpha1.APIKeyList{}
	if err := r.List(ctx, keys, client.InNamespace(namespace)); err != nil {
		return 0, 0, fmt.Errorf("listing API keys: %w", err)
	}
	var ni, nk int32
	for _, item := range indexes.Items {
		if item.DeletionTimestamp.IsZero() {
			ni++
		}
	}
	for _, item := range keys.Items {
		if item.DeletionTimestamp.IsZero() {
			nk++
		}
	}
	return ni, nk, nil
}

func (r *WorkspaceReconciler) namespaceReadiness(ctx context.Context, name string) (readiness, error) {
	ns := &corev1.Namespace{}
	if err := r.Get(ctx, client.ObjectKey{Name: name}, ns); err != nil {
		if apierrors.IsNotFound(err) {
			return notReady(searchv1alpha1.ReasonNamespaceNotFound, fmt.Sprintf("namespace %q does not exist", name)), nil
		}
		return readiness{}, fmt.Errorf("getting namespace: %w", err)
	}
	if !ns.DeletionTimestamp.IsZero() {
		return notReady(searchv1alpha1.ReasonNamespaceNotFound, fmt.Sprintf("namespace %q is being deleted", name)), nil
	}
	return ready(fmt.Sprintf("namespace %q holds the workspace's indexes and keys", name)), nil
}
