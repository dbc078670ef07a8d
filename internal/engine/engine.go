// Package engine is Aisle's embedded search engine: an Elasticsearch-8-compatible HTTP
// server (the REST subset in DESIGN.md) on bleve, with on-disk data that survives restarts.
package engine

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"github.com/aislehq/aisle/internal/engine/httpapi"
	"github.com/aislehq/aisle/internal/engine/pit"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Config configures a Server.
type Config struct {
	// DataDir holds indices and metadata; it is created if missing.
	DataDir string
	// Addr is the listen address; default "127.0.0.1:0" (a random loopback port).
	Addr string
	// ReadTimeout bounds reading a request, headers and body; WriteTimeout the time from
	// the end of its headers to the end of the answer; IdleTimeout how long a keep-alive
	// connection waits for its next request. MaxHeaderBytes bounds the request line and
	// headers. Zero takes the defaults below.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	MaxHeaderBytes                         int
}

// Defaults of the listener's limits: no connection is held forever (a body that never
// arrives, an idle client), while the largest bulk request reads on a slow link and the
// slowest answer (a bulk write waiting for a refresh) is written.
const (
	DefaultReadTimeout    = 5 * time.Minute
	DefaultWriteTimeout   = 10 * time.Minute
	DefaultIdleTimeout    = 2 * time.Minute
	DefaultMaxHeaderBytes = 1 << 20
)

// WithDefaults fills the zero fields of cfg.
func (cfg Config) WithDefaults() Config {
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	cfg.ReadTimeout = orDefault(cfg.ReadTimeout, DefaultReadTimeout)
	cfg.WriteTimeout = orDefault(cfg.WriteTimeout, DefaultWriteTimeout)
	cfg.IdleTimeout = orDefault(cfg.IdleTimeout, DefaultIdleTimeout)
	if cfg.MaxHeaderBytes <= 0 {
		cfg.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	return cfg
}

func orDefault(v, def time.Duration) time.Duration {
	if v <= 0 {
		return def
	}
	return v
}

// Server is a running engine.
type Server struct {
	store    *store.Store
	api      *httpapi.API
	http     *http.Server
	listener net.Listener
	url      string
	done     chan error
	once     sync.Once
	closeErr error
}

// Start opens the data directory and serves HTTP until Close or ctx is cancelled.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.DataDir == "" {
		return nil, errors.New("engine: DataDir is required")
	}
	cfg = cfg.WithDefaults()
	st, err := store.Open(cfg.DataDir)
	if err != nil {
		return nil, fmt.Errorf("engine: open data: %w", err)
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("engine: listen: %w", err)
	}
	api := &httpapi.API{Store: st, ClusterUUID: clusterUUID(cfg.DataDir), PITs: pit.New(pit.DefaultMaxOpen)}
	s := &Server{
		store:    st,
		api:      api,
		listener: ln,
		url:      "http://" + ln.Addr().String(),
		done:     make(chan error, 1),
		http: &http.Server{
			Handler:           api,
			ReadHeaderTimeout: 30 * time.Second,
			ReadTimeout:       cfg.ReadTimeout,
			WriteTimeout:      cfg.WriteTimeout,
			IdleTimeout:       cfg.IdleTimeout,
			MaxHeaderBytes:    cfg.MaxHeaderBytes,
		},
	}
	go func() { s.done <- s.http.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = s.Close()
	}()
	return s, nil
}

// gcPercent is the engine's GOGC. Indexing allocates about 50 KB per 1 KB document
// (analysis, segment building) over a live heap of 0.5 to 1.5 GB, so the collector's
// share of the CPU falls with every doubling: at 100 it took a quarter of indexing CPU;
// 400 against 200 cut indexing CPU by about 6% and halved how often a collection slows
// concurrent searches (p99 21-22 ms against 38-46 ms in most runs), for 15-36% more peak
// memory in two series of runs (docs/benchmarks.md, round 5).
const gcPercent = 400

// memLimitRatio is the share of the container's memory (or the machine's, outside a
// container) given to the Go heap as a soft limit: near it the collector runs as often as
// it must instead of letting gcPercent grow the heap past what the pod may use. The rest
// is for the index's segments, which are mapped files and count in the resident memory
// (Elasticsearch likewise leaves half the memory outside its heap for Lucene's files).
// Indexing 100,000 products with a limit of 768 MiB (a 1 GiB pod) peaked at 897 MB
// resident, against 1,097-1,117 MB with 1 GiB, for the same CPU; the live heap stayed
// under 400 MB (docs/benchmarks.md).
const memLimitRatio = 0.75

// TuneGC sets the collector for an engine process unless the operator chose: GOGC to
// gcPercent unless GOGC is set, and a soft memory limit (GOMEMLIMIT) of memLimitRatio of
// the cgroup's memory limit, or of the machine's memory when there is none, unless
// GOMEMLIMIT is set or AUTOMEMLIMIT says otherwise. It returns the memory limit in force.
// It sets process-wide knobs, so the process that runs the engine decides (`aisle engine`
// does); Start leaves them alone.
func TuneGC() (memLimit int64, err error) {
	return tuneGC(memoryFound)
}

// memoryFound is the memory the engine is given: its cgroup's limit, else the machine's.
var memoryFound = memlimit.ApplyFallback(memlimit.FromCgroup, memlimit.FromSystem)

func tuneGC(memory memlimit.Provider) (int64, error) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	limit, err := memlimit.Set(memlimit.WithRatio(memLimitRatio), memlimit.WithProvider(memory))
	if err != nil {
		return limit, fmt.Errorf("setting the memory limit: %w", err)
	}
	return limit, nil
}

// URL is the base URL, e.g. http://127.0.0.1:41234.
func (s *Server) URL() string { return s.url }

// Close stops serving, waits for in-flight requests, and persists all indices.
func (s *Server) Close() error {
	s.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err := s.http.Shutdown(ctx)
		if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) && err == nil {
			err = serr
		}
		s.api.PITs.CloseAll()
		if cerr := s.store.Close(); err == nil {
			err = cerr
		}
		s.closeErr = err
	})
	return s.closeErr
}

// clusterUUID is stable per data directory, as an ES cluster's UUID is.
func clusterUUID(dir string) string {
	p := filepath.Join(dir, "cluster_uuid")
	if b, err := os.ReadFile(p); err == nil && len(b) > 0 {
		return strings.TrimSpace(string(b))
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)[:22]
	_ = os.WriteFile(p, []byte(id), 0o644)
	return id
}
