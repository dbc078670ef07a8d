package controllers

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/catalog/janitor"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/plan"
)

// SearchIndexReconciler creates a SearchIndex's physical index and alias, assigns its
// public ID, reports its records, and cleans up its Elasticsearch data on deletion.
type SearchIndexReconciler struct {
	client.Client
	Recorder events.EventRecorder
	Backend  *Backend
	Options  Options
	// Catalog is the catalog service that the janitor (what crashed or abandoned catalog
	// writes left behind, catalog/janitor) and settings rebuilds (catalog/rebuild) run on.
	Catalog *catalog.Service

	rebuilds  rebuilds
	retention dueRuns[time.Time]
	signals   dueRuns[signalsRun]
}

// +kubebuilder:rbac:groups=search.aisle.dev,resources=searchindexes,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=search.aisle.dev,resources=searchindexes/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=search.aisle.dev,resources=searchindexes/finalizers,verbs=update
// +kubebuilder:rbac:groups=search.aisle.dev,resources=workspaces,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

// Reconcile brings one SearchIndex to its declared state.
func (r *SearchIndexReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return retryConflicts(r.reconcile(ctx, req))
}

func (r *SearchIndexReconciler) reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	si := &searchv1alpha1.SearchIndex{}
	if err := r.Get(ctx, req.NamespacedName, si); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !si.DeletionTimestamp.IsZero() {
		return r.finalize(ctx, si)
	}
	if controllerutil.AddFinalizer(si, FinalizerName) {
		if err := r.Update(ctx, si); err != nil {
			return ctrl.Result{}, fmt.Errorf("adding the finalizer: %w", err)
		}
	}
	if si.Status.PublicID == "" {
		return ctrl.Result{}, r.assignPublicID(ctx, si)
	}
	before := si.Status.DeepCopy()
	result, rd, err := r.reconcileBackend(ctx, si)
	setReady(r.Recorder, si, &si.Status.Conditions, si.Generation, rd)
	si.Status.ObservedGeneration = si.Generation
	if !equality.Semantic.DeepEqual(before, &si.Status) {
		if uerr := r.Status().Update(ctx, si); uerr != nil {
			return ctrl.Result{}, errors.Join(err, fmt.Errorf("updating status: %w", uerr))
		}
	}
	return result, err
}

// reconcileBackend runs the steps that need the workspace, the plan and Elasticsearch,
// and says what Ready should be.
func (r *SearchIndexReconciler) reconcileBackend(ctx context.Context, si *searchv1alpha1.SearchIndex) (ctrl.Result, readiness, error) {
	ws := &searchv1alpha1.Workspace{}
	if err := r.Get(ctx, types.NamespacedName{Name: si.Namespace}, ws); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{}, notReady(searchv1alpha1.ReasonWorkspaceNotFound,
				fmt.Sprintf("no Workspace named %q for this namespace", si.Namespace)), nil
		}
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonWorkspaceNotFound, err.Error()), fmt.Errorf("getting the workspace: %w", err)
	}
	within, err := r.withinPlan(ctx, si, ws)
	if err != nil {
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonPlanLimitReached, err.Error()), err
	}
	if !within {
		return ctrl.Result{}, notReady(searchv1alpha1.ReasonPlanLimitReached,
			fmt.Sprintf("workspace %q allows %d indexes", ws.Name, ws.Spec.Plan.MaxIndexes)), nil
	}
	names := esnames.For(si.Namespace, si.Name)
	state, err := r.Backend.EnsureIndex(ctx, names, si.Spec.Settings)
	if err != nil {
		return ctrl.Result{}, backendReadiness(err), err
	}
	if state.Created {
		r.Recorder.Eventf(si, nil, "Normal", "Created", "CreateIndex", "created index %s with alias %s", state.Physical, names.Alias())
	}
	// Hash fails only on settings that cannot be encoded: then nothing is rebuilt.
	want, _ := indexmapping.Hash(si.Spec.Settings)
	if r.Catalog != nil {
		// Best effort: a failed sweep is retried on the next reconcile.
		if err := janitor.Sweep(ctx, r.Catalog, names, want); err != nil {
			log.FromContext(ctx).Error(err, "sweeping catalog leftovers")
		}
	}
	r.applyRetention(ctx, names)
	r.refreshSignals(ctx, names, si.Spec.Settings)
	poll := r.reconcileRebuild(ctx, si, names, want, state)
	records, err := r.Backend.Count(ctx, names.Alias())
	if err != nil {
		return ctrl.Result{}, backendReadiness(err), err
	}
	si.Status.Alias = names.Alias()
	si.Status.PhysicalIndex = state.Physical
	si.Status.SettingsHash = state.SettingsHash
	si.Status.Records = records
	log.FromContext(ctx).V(1).Info("index reconciled", "physicalIndex", state.Physical, "records", records)
	// The record count is refreshed every RecordsRefresh; a rebuild in progress polls
	// sooner.
	res := Results{}.Requeue(r.Options.RecordsRefresh).Requeue(poll)
	return res.Result(), ready("alias " + names.Alias() + " points at " + state.Physical), nil
}

// withinPlan reports whether si is among the indexes the workspace plan allows.
func (r *SearchIndexReconciler) withinPlan(ctx context.Context, si *searchv1alpha1.SearchIndex, ws *searchv1alpha1.Workspace) (bool, error) {
	list := &searchv1alpha1.SearchIndexList{}
	if err := r.List(ctx, list, client.InNamespace(si.Namespace)); err != nil {
		return false, fmt.Errorf("listing the workspace's indexes: %w", err)
	}
	entries := make([]plan.Entry, 0, len(list.Items))
	for _, item := range list.Items {
		if item.DeletionTimestamp.IsZero() {
			entries = append(entries, plan.Entry{Name: item.Name, Created: item.CreationTimestamp.Time})
		}
	}
	return plan.Admitted(entries, int(ws.Spec.Plan.MaxIndexes))[si.Name], nil
}

// assignPublicID gives the index its public ID before any Elasticsearch resource exists.
// Status is its home; the annotation mirrors it so that a restore without status keeps
// the ID (an ID already in the annotation is taken over, never replaced).
func (r *SearchIndexReconciler) assignPublicID(ctx context.Context, si *searchv1alpha1.SearchIndex) error {
	id := si.Annotations[PublicIDAnnotation]
	if id == "" {
		var err error
		if id, err = newPublicID(); err != nil {
			return err
		}
		// Optimistic lock: a reconcile working from a stale cache must not replace an ID
		// that another reconcile has just written.
		patch := client.MergeFromWithOptions(si.DeepCopy(), client.MergeFromWithOptimisticLock{})
		if si.Annotations == nil {
			si.Annotations = map[string]string{}
		}
		si.Annotations[PublicIDAnnotation] = id
		if err := r.Patch(ctx, si, patch); err != nil {
			return fmt.Errorf("recording the public ID annotation: %w", err)
		}
	}
	si.Status.PublicID = id
	si.Status.ObservedGeneration = si.Generation
	if err := r.Status().Update(ctx, si); err != nil {
		return fmt.Errorf("recording the public ID in status: %w", err)
	}
	r.Recorder.Eventf(si, nil, "Normal", "PublicIDAssigned", "AssignPublicID", "public ID %s", id)
	return nil
}

// newPublicID returns 160 random bits as lowercase base32: URL-safe, 32 characters.
func newPublicID() (string, error) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("reading random bytes: %w", err)
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b)), nil
}

// finalize applies the deletion policy, then lets the object go.
func (r *SearchIndexReconciler) finalize(ctx context.Context, si *searchv1alpha1.SearchIndex) (ctrl.Result, error) {
	r.rebuilds.stop(types.NamespacedName{Namespace: si.Namespace, Name: si.Name})
	if !controllerutil.ContainsFinalizer(si, FinalizerName) {
		return ctrl.Result{}, nil
	}
	if si.Spec.DeletionPolicy == searchv1alpha1.DeletionDelete {
		deleted, err := r.Backend.DeleteAll(ctx, esnames.For(si.Namespace, si.Name))
		if err != nil {
			setReady(r.Recorder, si, &si.Status.Conditions, si.Generation, backendReadiness(err))
			return ctrl.Result{}, errors.Join(err, r.Status().Update(ctx, si))
		}
		r.Recorder.Eventf(si, nil, "Normal", "Deleted", "DeleteIndex", "deleted %d Elasticsearch indices: %s", len(deleted), strings.Join(deleted, ", "))
	} else {
		r.Recorder.Eventf(si, nil, "Normal", "Retained", "DeleteIndex", "left the Elasticsearch data of %s in place", si.Status.Alias)
	}
	controllerutil.RemoveFinalizer(si, FinalizerName)
	if err := client.IgnoreNotFound(r.Update(ctx, si)); err != nil {
		return ctrl.Result{}, fmt.Errorf("removing the finalizer: %w", err)
	}
	return ctrl.Result{}, nil
}

// backendReadiness turns a backend error into the Ready condition it causes.
func backendReadiness(err error) readiness {
	if errors.Is(err, es.ErrUnavailable) {
		backendUnavailable.Inc()
		return notReady(searchv1alpha1.ReasonBackendUnavailable, err.Error())
	}
	return notReady(searchv1alpha1.ReasonBackendError, err.Error())
}
