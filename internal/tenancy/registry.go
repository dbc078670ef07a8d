package tenancy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// Field indexes of the informer cache.
const (
	keyHashField    = "status.keyHashes"
	securedKeyField = "status.securedKeyPublicKeys"
	publicIDField   = "status.publicId"
	originField     = "spec.allowedOrigins"
)

// The registry reads the three kinds and nothing else: no Secrets (the embedding service
// gets the one Secret an openAI embedder's apiKeySecret names, apiserver/embedding.go).
// +kubebuilder:rbac:groups=search.aisle.dev,resources=workspaces;searchindexes;apikeys,verbs=get;list;watch

// Registry answers tenancy questions from an informer cache of the three CRDs. It holds
// no state of its own, so any number of apiserver replicas agree with the cluster.
type Registry struct {
	cache   cache.Cache
	clock   clock.PassiveClock
	changes *changes
}

// NewRegistry builds a registry watching the cluster at cfg. Call Start, then WaitForSync.
func NewRegistry(ctx context.Context, cfg *rest.Config, scheme *runtime.Scheme, clk clock.PassiveClock) (*Registry, error) {
	c, err := cache.New(cfg, cache.Options{Scheme: scheme})
	if err != nil {
		return nil, fmt.Errorf("creating informer cache: %w", err)
	}
	if err := c.IndexField(ctx, &searchv1alpha1.APIKey{}, keyHashField, func(o client.Object) []string {
		return keyHashes(o.(*searchv1alpha1.APIKey))
	}); err != nil {
		return nil, fmt.Errorf("indexing API keys by hash: %w", err)
	}
	if err := c.IndexField(ctx, &searchv1alpha1.APIKey{}, securedKeyField, func(o client.Object) []string {
		return securedKeyPublicKeys(o.(*searchv1alpha1.APIKey))
	}); err != nil {
		return nil, fmt.Errorf("indexing API keys by secured key public key: %w", err)
	}
	if err := c.IndexField(ctx, &searchv1alpha1.SearchIndex{}, publicIDField, func(o client.Object) []string {
		if id := o.(*searchv1alpha1.SearchIndex).Status.PublicID; id != "" {
			return []string{id}
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("indexing search indexes by public ID: %w", err)
	}
	if err := c.IndexField(ctx, &searchv1alpha1.SearchIndex{}, originField, func(o client.Object) []string {
		var out []string
		for _, origin := range o.(*searchv1alpha1.SearchIndex).Spec.AllowedOrigins {
			out = append(out, string(origin))
		}
		return out
	}); err != nil {
		return nil, fmt.Errorf("indexing search indexes by allowed origin: %w", err)
	}
	r := &Registry{cache: c, clock: clk, changes: newChanges()}
	if err := r.watchChanges(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Start runs the informers until ctx ends.
func (r *Registry) Start(ctx context.Context) error {
	return r.cache.Start(ctx)
}

// WaitForSync blocks until the informers hold the cluster's state.
func (r *Registry) WaitForSync(ctx context.Context) bool {
	return r.cache.WaitForCacheSync(ctx)
}

// Authenticate resolves the value of an Authorization header to a principal: a plain
// key by its hash, a secured key by its parent's public key (secured.go).
func (r *Registry) Authenticate(ctx context.Context, header string) (Principal, error) {
	key, err := bearerToken(header)
	if err != nil {
		return Principal{}, err
	}
	if isSecured(key) {
		return r.authenticateSecured(ctx, key)
	}
	if !apikey.WellFormed(key) {
		return Principal{}, ErrInvalidKey
	}
	k, err := r.keyBy(ctx, keyHashField, apikey.Hash(key))
	if err != nil || k == nil {
		return Principal{}, cmp.Or(err, ErrInvalidKey)
	}
	if err := checkKey(k, key, r.clock.Now()); err != nil {
		return Principal{}, err
	}
	return principalOf(k, apikey.Prefix(key)), nil
}

// authenticateSecured checks a secured key against the parent its payload names.
func (r *Registry) authenticateSecured(ctx context.Context, key string) (Principal, error) {
	sk, err := decodeSecured(key)
	if err != nil {
		return Principal{}, err
	}
	parent, err := r.keyBy(ctx, securedKeyField, sk.claims.Key)
	if err != nil {
		return Principal{}, err
	}
	if parent == nil {
		return Principal{}, fmt.Errorf("%w: the key it was derived from is unknown: deleted, or rotated away", ErrInvalidSecuredKey)
	}
	return checkSecured(parent, sk, r.clock.Now())
}

// keyBy returns the one APIKey whose field index holds value, or nil.
func (r *Registry) keyBy(ctx context.Context, field, value string) (*searchv1alpha1.APIKey, error) {
	var keys searchv1alpha1.APIKeyList
	if err := r.cache.List(ctx, &keys, client.MatchingFields{field: value}); err != nil {
		return nil, fmt.Errorf("looking up API key: %w", err)
	}
	if len(keys.Items) != 1 {
		// Two objects can only share a hash or public key if someone copied status by
		// hand: trust neither.
		return nil, nil
	}
	return &keys.Items[0], nil
}

func bearerToken(header string) (string, error) {
	if header == "" {
		return "", ErrMissingKey
	}
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return "", ErrMalformedKey
	}
	return token, nil
}

// Index returns the SearchIndex name of workspace ws.
func (r *Registry) Index(ctx context.Context, ws, name string) (*searchv1alpha1.SearchIndex, error) {
	var idx searchv1alpha1.SearchIndex
	if err := r.cache.Get(ctx, types.NamespacedName{Namespace: ws, Name: name}, &idx); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, ErrIndexNotFound
		}
		return nil, fmt.Errorf("reading index %s/%s: %w", ws, name, err)
	}
	return &idx, nil
}

// IndexByPublicID returns the SearchIndex with the given public ID.
func (r *Registry) IndexByPublicID(ctx context.Context, publicID string) (*searchv1alpha1.SearchIndex, error) {
	var list searchv1alpha1.SearchIndexList
	if err := r.cache.List(ctx, &list, client.MatchingFields{publicIDField: publicID}); err != nil {
		return nil, fmt.Errorf("looking up public ID: %w", err)
	}
	if len(list.Items) != 1 {
		return nil, ErrIndexNotFound
	}
	return &list.Items[0], nil
}

// Authorize authenticates header and decides access to index of workspace ws for req,
// returning the principal and, when access is granted, the index.
func (r *Registry) Authorize(ctx context.Context, header, ws, index string, req Requirement) (Principal, *searchv1alpha1.SearchIndex, error) {
	p, err := r.Authenticate(ctx, header)
	if err != nil {
		return p, nil, err
	}
	idx, err := r.AuthorizeIndex(ctx, p, ws, index, req)
	return p, idx, err
}

// AuthorizeIndex decides access of an authenticated principal to index of workspace ws
// for req, returning the index when access is granted: for a request naming its indexes
// in its body (multi-search), once per index.
func (r *Registry) AuthorizeIndex(ctx context.Context, p Principal, ws, index string, req Requirement) (*searchv1alpha1.SearchIndex, error) {
	var idx *searchv1alpha1.SearchIndex
	exists := false
	if p.Workspace == ws {
		var err error
		idx, err = r.Index(ctx, ws, index)
		if err != nil && !errors.Is(err, ErrIndexNotFound) {
			return nil, err
		}
		exists = idx != nil
	}
	if err := Authorize(p, ws, index, exists, req); err != nil {
		return nil, err
	}
	return idx, nil
}

// AuthorizeWorkspace authenticates header and decides access to an endpoint of workspace
// ws for req that names its indexes in its body (see AuthorizeWorkspace).
func (r *Registry) AuthorizeWorkspace(ctx context.Context, header, ws string, req Requirement) (Principal, error) {
	p, err := r.Authenticate(ctx, header)
	if err != nil {
		return p, err
	}
	return p, AuthorizeWorkspace(p, ws, req)
}

// OriginAllowed reports whether some index allows origin, for a CORS preflight that
// names no index (public multi-search).
func (r *Registry) OriginAllowed(ctx context.Context, origin string) (bool, error) {
	var list searchv1alpha1.SearchIndexList
	if err := r.cache.List(ctx, &list, client.MatchingFields{originField: origin}); err != nil {
		return false, fmt.Errorf("looking up allowed origins: %w", err)
	}
	return len(list.Items) > 0, nil
}

// Workspace returns the Workspace named ws.
func (r *Registry) Workspace(ctx context.Context, ws string) (*searchv1alpha1.Workspace, error) {
	var w searchv1alpha1.Workspace
	if err := r.cache.Get(ctx, types.NamespacedName{Name: ws}, &w); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, ErrWorkspaceNotFound
		}
		return nil, fmt.Errorf("reading workspace %s: %w", ws, err)
	}
	return &w, nil
}

// Indexes returns the SearchIndexes of workspace ws.
func (r *Registry) Indexes(ctx context.Context, ws string) ([]searchv1alpha1.SearchIndex, error) {
	var list searchv1alpha1.SearchIndexList
	if err := r.cache.List(ctx, &list, client.InNamespace(ws)); err != nil {
		return nil, fmt.Errorf("listing the indexes of %s: %w", ws, err)
	}
	return list.Items, nil
}

// AllIndexes returns the SearchIndexes of every workspace.
func (r *Registry) AllIndexes(ctx context.Context) ([]searchv1alpha1.SearchIndex, error) {
	var list searchv1alpha1.SearchIndexList
	if err := r.cache.List(ctx, &list); err != nil {
		return nil, fmt.Errorf("listing the indexes: %w", err)
	}
	return list.Items, nil
}
