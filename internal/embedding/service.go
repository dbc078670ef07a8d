package embedding

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/embedder"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// ErrNoURL is an openAI embedder naming no url on a server started without a default.
var ErrNoURL = errors.New("the embedder names no url and the API server has no --embedder-url")

// TokenFunc reads the token a Secret's key holds, in namespace.
type TokenFunc func(ctx context.Context, namespace string, ref searchv1alpha1.SecretKeySelector) (string, error)

// Config tunes the embedding work.
type Config struct {
	// DefaultURL is the url of an openAI embedder that names none (--embedder-url).
	DefaultURL string
	// Tokens reads apiKeySecret; nil: an embedder naming one fails.
	Tokens TokenFunc
	// HTTP calls the embedders (http.DefaultClient when nil).
	HTTP *http.Client
	// Records is how many records one pass embeds (default 64): the embedder client
	// sends them in its own batches.
	Records int
	// Interval is the pause after a pass that found nothing to do, or failed (default 2s).
	Interval time.Duration
	// Client bounds the worker's calls (timeout, attempts, backoff); the embedder
	// package's defaults where zero.
	Client embedder.Config
	// QueryTimeout bounds the embedding of a search's query, whose failure falls back
	// to words (default 2s, two attempts).
	QueryTimeout time.Duration
	// QueryCache is how many query vectors are kept (default 10,000).
	QueryCache int
	// Logger receives the worker's failures.
	Logger *slog.Logger
	// Holder names this replica in the embedding leases (default: a random name).
	Holder string
	// Lease is how long a replica's lease on an embedder's records lasts, renewed at
	// each pass and every third of it while one runs (default 1m).
	Lease time.Duration
	// PruneInterval is how often an index's kept vectors are pruned of those no record
	// holds, and the query cache of those no embedder makes (default 10m).
	PruneInterval time.Duration
}

// Service is the embedding work of one API server replica.
type Service struct {
	cfg     Config
	store   store
	control *controlindex.Store
	queries *embedder.QueryCache
	leases  leases
	// pruned is when each index (by alias) and the query cache ("") were last pruned;
	// Run's alone.
	pruned map[string]time.Time
}

// New returns the embedding service over client.
func New(client *elasticsearch.TypedClient, cfg Config) (*Service, error) {
	if cfg.Records <= 0 {
		cfg.Records = 64
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	if cfg.QueryTimeout <= 0 {
		cfg.QueryTimeout = 2 * time.Second
	}
	if cfg.QueryCache <= 0 {
		cfg.QueryCache = 10_000
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Holder == "" {
		cfg.Holder = rand.Text()
	}
	if cfg.Lease <= 0 {
		cfg.Lease = time.Minute
	}
	if cfg.PruneInterval <= 0 {
		cfg.PruneInterval = 10 * time.Minute
	}
	q, err := embedder.NewQueryCache(cfg.QueryCache)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, store: store{es: client}, control: controlindex.NewStore(client), queries: q, pruned: map[string]time.Time{}}, nil
}

// client is the embedder client of n, with its server's URL and token.
func (s *Service) client(ctx context.Context, namespace string, n Named, bounds embedder.Config) (*embedder.Client, error) {
	cfg := bounds
	src := s.source(n)
	cfg.URL, cfg.Model, cfg.Dimensions, cfg.SendDimensions = src.URL, src.Model, src.Dimensions, src.SendDimensions
	if cfg.URL == "" {
		return nil, fmt.Errorf("embedder %s: %w", n.Name, ErrNoURL)
	}
	if ref := n.APIKeySecret; ref != nil {
		if s.cfg.Tokens == nil {
			return nil, fmt.Errorf("embedder %s: no reader of Secrets for apiKeySecret %s", n.Name, ref.Name)
		}
		token, err := s.cfg.Tokens(ctx, namespace, *ref)
		if err != nil {
			return nil, fmt.Errorf("embedder %s: reading apiKeySecret %s/%s key %s: %w", n.Name, namespace, ref.Name, ref.Key, err)
		}
		cfg.Token = token
	}
	return embedder.New(cfg, s.cfg.HTTP), nil
}

// source is what makes n's vectors on this replica: its url, or the server's default.
func (s *Service) source(n Named) embedder.Source {
	src := embedder.Source{URL: n.URL, Model: n.Model, Dimensions: int(n.Dimensions), SendDimensions: n.SendDimensions}
	if src.URL == "" {
		src.URL = s.cfg.DefaultURL
	}
	return src
}

// QueryVector embeds a search's text with the index's openAI embedder name, through the
// query cache; ok false when name is no openAI embedder of idx (the caller's vector
// is then required, as for userProvided).
func (s *Service) QueryVector(ctx context.Context, idx *searchv1alpha1.SearchIndex, name, text string) (v []float64, ok bool, err error) {
	e, known := indexmapping.Embedders(idx.Spec.Settings)[name]
	if !known || e.Source != searchv1alpha1.EmbedderOpenAI {
		return nil, false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.QueryTimeout)
	defer cancel()
	c, err := s.client(ctx, idx.Namespace, Named{Name: name, Embedder: e},
		embedder.Config{CallTimeout: s.cfg.QueryTimeout, Attempts: 2, Backoff: 50 * time.Millisecond})
	if err != nil {
		return nil, true, err
	}
	f32, err := s.queries.Vector(ctx, c, text)
	if err != nil {
		return nil, true, fmt.Errorf("embedding the query with %s: %w", name, err)
	}
	v = make([]float64, len(f32))
	for i, x := range f32 {
		v[i] = float64(x)
	}
	return v, true, nil
}
