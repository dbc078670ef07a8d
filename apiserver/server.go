// Package apiserver is Aisle's HTTP API: a Fiber app implementing the contract in
// shared/spec/http-interface.md. Handlers bind, validate, call a service and respond;
// every failure goes through one error handler.
package apiserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/aislehq/aisle/internal/catalog"
	"github.com/aislehq/aisle/internal/embedding"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/recommend"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/settingsfence"
	"github.com/aislehq/aisle/internal/settingsstore"
	"github.com/aislehq/aisle/internal/tenancy"
	"github.com/aislehq/aisle/internal/usage"
)

// DefaultBodyLimit fits the largest body of the contract, PUT /records with 100,000
// records of about 1 KB; endpoints with smaller limits check their own.
const DefaultBodyLimit = 128 << 20

// PublicBodyLimit bounds the body of an unauthenticated endpoint but public events (see
// bodyLimitFor): a search request (its query, filters and lists) fits in far less.
const PublicBodyLimit = 64 << 10

// Defaults of the listener's limits: no connection is held longer than a body of
// DefaultBodyLimit takes to arrive on a slow link, and request headers are bounded.
const (
	DefaultReadTimeout    = 2 * time.Minute
	DefaultWriteTimeout   = 2 * time.Minute
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultReadBufferSize = 16 << 10
)

// Config configures the HTTP server.
type Config struct {
	// BodyLimit is the largest request body accepted, in bytes (413 beyond).
	BodyLimit int
	// ReadTimeout bounds the time to read a request, headers and body; WriteTimeout the
	// time to write the response; IdleTimeout how long a keep-alive connection waits for
	// its next request.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// ReadBufferSize bounds the request line and headers, in bytes (431 beyond).
	ReadBufferSize int
	// Logger receives access and error logs.
	Logger *slog.Logger
	// Metrics registers the HTTP metrics; nil uses a private registry.
	Metrics prometheus.Registerer
	// MetricsGatherer serves /metrics; nil serves the private registry.
	MetricsGatherer prometheus.Gatherer
	// Catalog is the write path; nil answers the record endpoints with 503.
	Catalog *catalog.Service
	// Search runs searches; nil answers the search endpoints with 503.
	Search *search.Service
	// Usage counts searches against the monthly plan limit; nil counts nothing.
	Usage *usage.Meter
	// Writer reads and writes settings and policies in SearchIndexes (see
	// internal/settingsstore); nil answers the writes with 503, and the reads from the
	// informer cache.
	Writer client.Client
	// Insights reads events back (statistics, Bought together); nil answers those
	// endpoints with 503.
	Insights *events.Reader
	// Recommend builds the recommendation lists (similar, goes with, trending); nil
	// answers them with 503.
	Recommend *recommend.Service
	// PublicLimits are the public search rate limits.
	PublicLimits PublicLimits
	// Events records shopper events and orders; nil answers the event endpoints with 503.
	Events *events.Service
	// EventLimits are the event endpoints' rate limits.
	EventLimits EventLimits
	// Countries finds browsers' countries; nil leaves them unknown.
	Countries *events.Countries
	// SearchLog records answered searches (its Run writes them); nil records none.
	SearchLog *searchlog.Recorder
	// Searches reads the search log back: the Events page's Searches section and query
	// suggestions; nil leaves the section out and answers suggestions with 503.
	Searches *searchlog.Reader
	// Marks keeps the generations written to indexes' settings, which every replica's
	// searches check their informer against (internal/settingsfence); nil leaves a
	// change to reach other replicas a moment after the writer answered.
	Marks *settingsfence.Marks
	// Embedding embeds records and queries for openAI embedders (internal/embedding);
	// nil: a hybrid search of such an embedder needs its vector, and no record gets one.
	Embedding *embedding.Service
}

// Server is the API server.
type Server struct {
	app       *fiber.App
	registry  *tenancy.Registry
	catalog   *catalog.Service
	ready     atomic.Bool
	search    *search.Service
	usage     *usage.Meter
	settings  *settingsstore.Store
	fence     *settingsfence.Fence
	limits    *limiters
	insights  *events.Reader
	recommend *recommend.Service
	embedding *embedding.Service

	events      *events.Service
	eventLimits *eventLimiters
	countries   *events.Countries
	searchLog   *searchlog.Recorder
	searches    *searchlog.Reader

	bodyLimit   int
	keyedRoutes keyedRoutes
}

// New builds the server on a tenancy registry.
func New(cfg Config, registry *tenancy.Registry) *Server {
	cfg = withDefaults(cfg)
	fence := settingsfence.New(cfg.Marks, registry)
	s := &Server{registry: registry, catalog: cfg.Catalog, search: cfg.Search, usage: cfg.Usage, settings: settingsStore(cfg, fence), fence: fence, limits: newLimiters(cfg.PublicLimits),
		insights: cfg.Insights, recommend: cfg.Recommend, embedding: cfg.Embedding, events: cfg.Events, eventLimits: newEventLimiters(cfg.EventLimits), countries: cfg.Countries,
		searchLog: cfg.SearchLog, searches: cfg.Searches, bodyLimit: cfg.BodyLimit}
	s.app = fiber.New(fiber.Config{
		AppName:               "aisle-apiserver",
		BodyLimit:             cfg.BodyLimit,
		ReadTimeout:           cfg.ReadTimeout,
		WriteTimeout:          cfg.WriteTimeout,
		IdleTimeout:           cfg.IdleTimeout,
		ReadBufferSize:        cfg.ReadBufferSize,
		ErrorHandler:          handleError,
		DisableStartupMessage: true,
		StrictRouting:         true,
		CaseSensitive:         true,
	})
	s.app.Server().HeaderReceived = s.bodyLimitFor
	s.app.Server().ErrorHandler = drainRefused(s.answerKeyRefusal(s.app.Server().ErrorHandler))
	s.app.Server().Handler = unknownMethodsAsJSON(s.app)
	m := newHTTPMetrics(cfg.Metrics)
	if cfg.SearchLog != nil {
		cfg.Metrics.MustRegister(cfg.SearchLog.Collectors()...)
	}
	s.app.Use(requestid.New(), m.middleware, withRequestContext(cfg.Logger),
		recover.New(recover.Config{EnableStackTrace: true, StackTraceHandler: logPanic}))
	s.app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	s.app.Get("/readyz", s.readyz)
	s.app.Get("/metrics", metricsHandler(cfg.MetricsGatherer))
	s.routes()
	return s
}

func withDefaults(cfg Config) Config {
	if cfg.BodyLimit <= 0 {
		cfg.BodyLimit = DefaultBodyLimit
	}
	cfg.ReadTimeout = orDefault(cfg.ReadTimeout, DefaultReadTimeout)
	cfg.WriteTimeout = orDefault(cfg.WriteTimeout, DefaultWriteTimeout)
	cfg.IdleTimeout = orDefault(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.ReadBufferSize = orDefault(cfg.ReadBufferSize, DefaultReadBufferSize)
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Metrics == nil {
		reg := prometheus.NewRegistry()
		cfg.Metrics, cfg.MetricsGatherer = reg, reg
	}
	if cfg.Countries == nil {
		cfg.Countries = &events.Countries{}
	}
	if cfg.MetricsGatherer == nil {
		cfg.MetricsGatherer = prometheus.DefaultGatherer
	}
	return cfg
}

// settingsStore writes settings through cfg.Writer, checked against the fields of the
// records cfg.Search reads, and answers once fence published them.
func settingsStore(cfg Config, fence *settingsfence.Fence) *settingsstore.Store {
	if cfg.Search == nil {
		return settingsstore.New(cfg.Writer, nil, fence)
	}
	return settingsstore.New(cfg.Writer, cfg.Search, fence).WithHistory(cfg.Search.ConfigHistory())
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// routes declares the contract's endpoints under the index prefix.
func (s *Server) routes() {
	idx := s.keyed()
	idx.add(fiber.MethodGet, "/config", tenancy.Either, s.getConfig)
	idx.add(fiber.MethodGet, "/public-access", writeScope, s.getPublicAccess)

	cat := s.needCatalog
	idx.add(fiber.MethodPost, "/records", writeScope, cat, s.postRecords)
	idx.add(fiber.MethodPut, "/records", writeScope, cat, s.putRecords)
	idx.add(fiber.MethodGet, "/records", writeScope, cat, s.getRecords)
	idx.add(fiber.MethodGet, "/records/:objectID", tenancy.Either, cat, s.getRecord)
	idx.add(fiber.MethodDelete, "/records/:objectID", writeScope, cat, s.deleteRecord)
	idx.add(fiber.MethodPost, "/records/partial", writeScope, cat, s.postPartial)
	idx.add(fiber.MethodPost, "/records/delete", writeScope, cat, s.needSearch, s.postDelete)
	idx.add(fiber.MethodPost, "/records/browse", writeScope, cat, s.needSearch, s.postBrowse)
	idx.add(fiber.MethodPost, "/record-writes", writeScope, cat, s.postRecordWrite)
	idx.add(fiber.MethodGet, "/indexing", tenancy.Either, cat, s.getIndexing)
	idx.add(fiber.MethodPost, "/staged-replacements/:stageId", writeScope, cat, s.startStage)
	idx.add(fiber.MethodPost, "/staged-replacements/:stageId/batches/:batchId", writeScope, cat, s.uploadBatch)
	idx.add(fiber.MethodPost, "/staged-replacements/:stageId/commit", writeScope, cat, s.commitStage)
	idx.add(fiber.MethodDelete, "/staged-replacements/:stageId", writeScope, cat, s.abortStage)
	s.searchRoutes(idx)
	s.facetRoutes(idx)
	s.multiSearchRoutes()
	s.historyRoutes(idx)
	s.ruleRoutes(idx)
	s.eventRoutes(idx)
	s.insightRoutes(idx)
	s.listRoutes(idx)
	s.suggestionRoutes(idx)
	s.dashboardRoutes()
}

// searchRoutes declares search, settings, fields and browser search access.
func (s *Server) searchRoutes(idx keyedGroup) {
	idx.add(fiber.MethodPost, "/search", securedSearchScope, s.needSearch, s.postSearch)
	idx.add(fiber.MethodGet, "/fields", searchScope, s.needSearch, s.getFields)
	idx.add(fiber.MethodPut, "/config", writeScope, s.putConfig)
	idx.add(fiber.MethodPut, "/public-access/policy", writeScope, s.putPolicy)
	idx.add(fiber.MethodDelete, "/public-access/policy", writeScope, s.deletePolicy)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Options("/search", s.publicIndex, s.publicPreflight)
	public.Post("/search", s.publicIndex, s.publicLimit, s.needSearch, s.publicSearch)
}

// needCatalog answers 503 when the server runs without a search backend.
func (s *Server) needCatalog(c *fiber.Ctx) error {
	if s.catalog == nil {
		return errNoBackend
	}
	return c.Next()
}

// App returns the Fiber app, for tests (app.Test) and for Listen.
func (s *Server) App() *fiber.App { return s.app }

// SetReady marks the server ready once its informers are in sync.
func (s *Server) SetReady(ready bool) { s.ready.Store(ready) }

// Serve serves on ln until Shutdown. Its connections are drained before they close
// when a body was refused unread (drain.go).
func (s *Server) Serve(ln net.Listener) error {
	return s.app.Listener(drainListener{ln})
}

// Listen serves on addr until ctx ends, then shuts down gracefully.
func (s *Server) Listen(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		return s.app.ShutdownWithContext(context.WithoutCancel(ctx))
	}
}

func (s *Server) readyz(c *fiber.Ctx) error {
	if !s.ready.Load() {
		return errNotReady
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

func logPanic(c *fiber.Ctx, e any) {
	loggerFrom(c.UserContext()).ErrorContext(c.UserContext(), "panic while serving request", slog.Any("panic", e))
}
