package controllers

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	corev1 "k8s.io/api/core/v1"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// SetupWithManager watches SearchIndexes, their Workspace (creation and plan changes)
// and their siblings' arrival and departure (which change who fits the plan).
func (r *SearchIndexReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// The clock and the intervals are read in every step of a reconcile: one injected
	// clock, set here for a reconciler built without Setup.
	r.Options = r.Options.withDefaults()
	r.rebuilds.clock = r.Options.Clock
	if err := mgr.Add(&r.rebuilds); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).
		For(&searchv1alpha1.SearchIndex{}).
		Watches(&searchv1alpha1.Workspace{}, handler.EnqueueRequestsFromMapFunc(r.indexesOfWorkspace),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Watches(&searchv1alpha1.SearchIndex{}, handler.EnqueueRequestsFromMapFunc(r.siblings),
			builder.WithPredicates(membershipChanged())).
		WithOptions(r.Options.controllerOptions()).
		Named("searchindex").
		Complete(r)
}

// SetupWithManager watches APIKeys, the Secrets they own and their Workspace.
func (r *APIKeyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&searchv1alpha1.APIKey{}).
		Owns(&corev1.Secret{}).
		Watches(&searchv1alpha1.Workspace{}, handler.EnqueueRequestsFromMapFunc(r.keysOfWorkspace),
			builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		WithOptions(r.Options.controllerOptions()).
		Named("apikey").
		Complete(r)
}

// SetupWithManager watches Workspaces, their namespace, and the indexes and keys counted
// in their status.
func (r *WorkspaceReconciler) SetupWithManager(mgr ctrl.Manager, opts Options) error {
	toWorkspace := handler.EnqueueRequestsFromMapFunc(workspaceOfObject)
	return ctrl.NewControllerManagedBy(mgr).
		For(&searchv1alpha1.Workspace{}).
		Watches(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(workspaceOfNamespace)).
		Watches(&searchv1alpha1.SearchIndex{}, toWorkspace, builder.WithPredicates(membershipChanged())).
		Watches(&searchv1alpha1.APIKey{}, toWorkspace, builder.WithPredicates(membershipChanged())).
		WithOptions(opts.controllerOptions()).
		Named("workspace").
		Complete(r)
}

func (r *SearchIndexReconciler) indexesOfWorkspace(ctx context.Context, obj client.Object) []reconcile.Request {
	return listRequests(ctx, r.Client, &searchv1alpha1.SearchIndexList{}, obj.GetName())
}

func (r *SearchIndexReconciler) siblings(ctx context.Context, obj client.Object) []reconcile.Request {
	return listRequests(ctx, r.Client, &searchv1alpha1.SearchIndexList{}, obj.GetNamespace())
}

func (r *APIKeyReconciler) keysOfWorkspace(ctx context.Context, obj client.Object) []reconcile.Request {
	return listRequests(ctx, r.Client, &searchv1alpha1.APIKeyList{}, obj.GetName())
}

func workspaceOfObject(_ context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Name: obj.GetNamespace()}}}
}

func workspaceOfNamespace(_ context.Context, obj client.Object) []reconcile.Request {
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Name: obj.GetName()}}}
}

// listRequests enqueues every object of a list kind in a namespace.
func listRequests(ctx context.Context, c client.Client, list client.ObjectList, namespace string) []reconcile.Request {
	if err := c.List(ctx, list, client.InNamespace(namespace)); err != nil {
		log.FromContext(ctx).Error(err, "listing objects to enqueue", "namespace", namespace)
		return nil
	}
	var out []reconcile.Request
	switch l := list.(type) {
	case *searchv1alpha1.SearchIndexList:
		for _, item := range l.Items {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&item)})
		}
	case *searchv1alpha1.APIKeyList:
		for _, item := range l.Items {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&item)})
		}
	}
	return out
}

// membershipChanged passes creations, deletions and the start of a deletion: the events
// that change how many objects a namespace holds.
func membershipChanged() predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { return true },
		DeleteFunc:  func(event.DeleteEvent) bool { return true },
		GenericFunc: func(event.GenericEvent) bool { return false },
		UpdateFunc: func(e event.UpdateEvent) bool {
			return e.ObjectOld.GetDeletionTimestamp().IsZero() != e.ObjectNew.GetDeletionTimestamp().IsZero()
		},
	}
}
