// Package settingsstore reads and writes what the HTTP API may change in a SearchIndex,
// its settings and its public search policy, through the Kubernetes API: it checks a
// change, writes it as a JSON merge patch under the API server's field manager (a dry
// run when the change is refused, so that the Kubernetes API's own rules are named too),
// and answers with sentinel errors the HTTP layer maps to statuses.
//
// Reads go past the informer cache. A write is acknowledged once the Kubernetes API
// stored it, but each API server replica's informer learns of it a moment later, so a
// client that wrote through one replica and then read GET /config or GET /public-access
// through any replica (that one included) could be answered the previous state. Fresh
// reads the SearchIndex from the Kubernetes API instead: a read that starts after a
// write was acknowledged sees it (or a later write), whichever replica serves it. Those
// two endpoints serve people and deploy scripts, seldom, so one Kubernetes read per call
// costs little. Searches keep reading the informer cache (internal/tenancy): a write is
// answered only once its Publisher says every later search uses it
// (internal/settingsfence).
package settingsstore

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/searchquery"
)

// FieldManager is the field manager of the API server's writes to SearchIndexes.
const FieldManager = "aisle-apiserver"

// The API server reads SearchIndexes past its cache (Fresh, and before a settings
// change) and writes their spec; nothing else.
// +kubebuilder:rbac:groups=search.aisle.dev,resources=searchindexes,verbs=get;patch

var (
	// ErrNoKubernetes: the store was built without a Kubernetes client (503).
	ErrNoKubernetes = errors.New("settings cannot be written: no Kubernetes client configured")
	// ErrIndexNotFound: the Kubernetes API has no such SearchIndex (404).
	ErrIndexNotFound = errors.New("index not found")
	// ErrInvalidSettings: the settings break rules, each named after the sentinel (400).
	ErrInvalidSettings = errors.New("invalid settings")
	// ErrInvalidPolicy: the public search policy breaks rules, each named after it (400).
	ErrInvalidPolicy = errors.New("invalid policy")
)

// Schemas reads the mapping of the index behind an alias, to check settings and forced
// filters against the fields records hold.
type Schemas interface {
	Schema(ctx context.Context, alias string) (searchquery.Schema, error)
}

// Publisher returns once a SearchIndex, as a write stored it, is what every later
// search uses (settingsfence.Fence).
type Publisher interface {
	Publish(ctx context.Context, idx *searchv1alpha1.SearchIndex) error
}

// Store reads and writes SearchIndex settings and policies.
type Store struct {
	kube      client.Client
	schemas   Schemas
	publisher Publisher
	history   *history.Log
}

// New builds a store on kube; with a nil kube every write fails with ErrNoKubernetes.
// With nil schemas (no search backend) nothing is checked against the records' fields.
// A write is answered once publisher published it (at once with a nil publisher).
func New(kube client.Client, schemas Schemas, publisher Publisher) *Store {
	return &Store{kube: kube, schemas: schemas, publisher: publisher}
}

// Fresh returns idx, an informer's copy, as the Kubernetes API holds it now (see the
// package comment). Without a Kubernetes client the copy is all there is.
func (s *Store) Fresh(ctx context.Context, idx *searchv1alpha1.SearchIndex) (*searchv1alpha1.SearchIndex, error) {
	if s.kube == nil {
		return idx, nil
	}
	return s.get(ctx, client.ObjectKeyFromObject(idx))
}

// get reads the SearchIndex key from the Kubernetes API.
func (s *Store) get(ctx context.Context, key types.NamespacedName) (*searchv1alpha1.SearchIndex, error) {
	if s.kube == nil {
		return nil, ErrNoKubernetes
	}
	obj := &searchv1alpha1.SearchIndex{}
	if err := s.kube.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, ErrIndexNotFound
		}
		return nil, fmt.Errorf("reading index %s: %w", key, err)
	}
	return obj, nil
}

// patch applies a JSON merge patch to the SearchIndex key as FieldManager and returns
// once it is published; with dryRun the Kubernetes API validates it without storing it.
func (s *Store) patch(ctx context.Context, key types.NamespacedName, patch []byte, dryRun bool) (*searchv1alpha1.SearchIndex, error) {
	if s.kube == nil {
		return nil, ErrNoKubernetes
	}
	obj := &searchv1alpha1.SearchIndex{}
	obj.Namespace, obj.Name = key.Namespace, key.Name
	opts := []client.PatchOption{client.FieldOwner(FieldManager)}
	if dryRun {
		opts = append(opts, client.DryRunAll)
	}
	if err := s.kube.Patch(ctx, obj, client.RawPatch(types.MergePatchType, patch), opts...); err != nil || dryRun {
		return obj, err
	}
	if s.publisher != nil {
		if err := s.publisher.Publish(ctx, obj); err != nil {
			return nil, fmt.Errorf("publishing the change of index %s: %w", key, err)
		}
	}
	return obj, nil
}
