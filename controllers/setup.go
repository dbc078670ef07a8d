// Package controllers holds the Aisle operator's reconcilers: Workspace, SearchIndex and
// APIKey. Reconcilers stay thin; decisions live in pure packages (internal/indexmapping,
// internal/keyrotation, internal/plan) and Elasticsearch calls in backend.go.
package controllers

import (
	"fmt"
	"time"

	"github.com/elastic/go-elasticsearch/v8"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/aislehq/aisle/internal/catalog"
)

const (
	// FinalizerName guards the Elasticsearch data of a SearchIndex.
	FinalizerName = "search.aisle.dev/cleanup"
	// PublicIDAnnotation mirrors status.publicId so that the ID survives a restore of
	// the object without its status.
	PublicIDAnnotation = "search.aisle.dev/public-id"
	// ManagedByLabel marks the Secrets the operator writes; the Secret cache sees only them.
	ManagedByLabel = "app.kubernetes.io/managed-by"
	// ManagedByValue is the value of ManagedByLabel.
	ManagedByValue = "aisle-operator"
	// RecorderName is the component name on the operator's Events.
	RecorderName = "aisle-operator"
	// DefaultRecordsRefresh is how often a Ready SearchIndex's record count is refreshed.
	DefaultRecordsRefresh = 30 * time.Second
	// DefaultMaxBackoff caps the retry delay while the backend is unavailable.
	DefaultMaxBackoff = 60 * time.Second
)

// Options configure the reconcilers.
type Options struct {
	// ES is the client of the search backend.
	ES *elasticsearch.TypedClient
	// Clock tells the time; defaults to the real clock.
	Clock clock.Clock
	// RecordsRefresh is how often a Ready SearchIndex's record count is refreshed.
	RecordsRefresh time.Duration
	// MaxBackoff caps the retry delay after errors (backend down).
	MaxBackoff time.Duration
	// SignalsRefresh is how often an index's signals are computed again from its
	// events (DefaultSignalsRefresh). A Ready index is reconciled every RecordsRefresh,
	// so a refresh comes at most that much later.
	SignalsRefresh time.Duration
	// Catalog tunes the catalog janitor that runs on every SearchIndex reconcile
	// (abandoned stages, leftover physical indices, expired idempotency keys).
	Catalog catalog.Config
}

func (o Options) withDefaults() Options {
	if o.Clock == nil {
		o.Clock = clock.RealClock{}
	}
	if o.RecordsRefresh <= 0 {
		o.RecordsRefresh = DefaultRecordsRefresh
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.SignalsRefresh <= 0 {
		o.SignalsRefresh = DefaultSignalsRefresh
	}
	return o
}

func (o Options) controllerOptions() controller.Options {
	return controller.Options{
		RateLimiter: workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](100*time.Millisecond, o.MaxBackoff),
	}
}

// Setup registers the three reconcilers with mgr. The manager should be built with
// CacheOptions so that only the operator's own Secrets are cached.
func Setup(mgr ctrl.Manager, opts Options) error {
	if opts.ES == nil {
		return fmt.Errorf("controllers: no Elasticsearch client")
	}
	opts = opts.withDefaults()
	recorder := mgr.GetEventRecorder(RecorderName)
	if err := (&WorkspaceReconciler{Client: mgr.GetClient(), Recorder: recorder}).SetupWithManager(mgr, opts); err != nil {
		return fmt.Errorf("setting up the Workspace controller: %w", err)
	}
	si := &SearchIndexReconciler{Client: mgr.GetClient(), Recorder: recorder, Backend: &Backend{ES: opts.ES}, Options: opts,
		Catalog: catalog.New(opts.ES, opts.Catalog)}
	if err := si.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the SearchIndex controller: %w", err)
	}
	ak := &APIKeyReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Recorder: recorder, Options: opts}
	if err := ak.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("setting up the APIKey controller: %w", err)
	}
	return nil
}

// CacheOptions limit the manager's Secret cache to the Secrets the operator writes.
func CacheOptions() cache.Options {
	return cache.Options{ByObject: map[client.Object]cache.ByObject{
		&corev1.Secret{}: {Label: labels.SelectorFromSet(labels.Set{ManagedByLabel: ManagedByValue})},
	}}
}
