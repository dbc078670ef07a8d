// Package catalog is the core of Aisle's catalog write path: records, conditional
// writes, idempotency keys, receipts and revisions, full replacements (PUT /records), and
// the swap that moves the alias to a new physical index. Staged replacements
// (catalog/stage), settings rebuilds (catalog/rebuild) and the janitor (catalog/janitor)
// are built on the blocks it exports, and are never imported by it.
//
// All state lives in Elasticsearch, so any number of apiserver replicas share it:
//
//   - The records of a SearchIndex live in the physical index behind its alias. Each
//     document carries its version (the revision of the write that last changed it) in
//     the reserved field indexmapping.VersionField; documents of a replacement carry none, and take
//     the revision of that replacement, kept in State.Bases by physical index.
//   - The control index (esnames.Index.Control) holds one revision document (State),
//     idempotency documents ("idem.<key>"), stage documents ("stage.<id>"), build
//     leases ("build.<physical>") and rebuild checkpoints ("rebuild"). Every change is
//     optimistic: if_seq_no+if_primary_term, or op_type=create (controlindex.Store).
//   - A write allocates revision r by compare-and-set (r joins State.Pending with a
//     lease), writes its documents with refresh=wait_for and a timeout inside the lease,
//     then removes r from Pending. indexedRevision is the revision below the lowest
//     pending one, so it never covers a write that is not yet searchable. A replica
//     groups the revision changes of its concurrent writers into one compare-and-set,
//     made against the document as it last saw it (state_group.go). The compare-and-set
//     that completes a write reserves the next revision for the replica's next write,
//     which then only reads the document to check that nobody allocated since
//     (write_reserve.go). A one-record write sends that compare-and-set beside its
//     _bulk instead of after it, marking its revision landing (state_land.go,
//     write_land.go): the two durable writes overlap.
//   - A replacement fills a new physical index, sets the fence (no new revisions),
//     waits for pending writes to finish, allocates its revision, moves the alias with
//     one POST /_aliases (remove + add), clears the fence and deletes the old index
//     (swap.go). Writes after it go to the new index; none is lost.
//   - A conditional write reads the document in real time with its seq_no and
//     primary_term under its own revision's lease (so no swap can happen in between),
//     and writes with if_seq_no/if_primary_term or op_type=create: exact compare-and-set.
//
// A record write (POST /records, DELETE /records/{objectID}, POST /record-writes, and
// POST /records/partial in partial_write.go) reads top to bottom in write.go, which
// lists its steps; it visits, in order:
//
//  1. write.go: Upsert or Delete (or conditional.go: ConditionalWrite, which with an
//     idempotency key runs the checks first, then claims the key, idempotency.go),
//     then ticket, with write_reserve.go;
//  2. write_plan.go and write_mapping.go (with typecheck.go): the checks;
//  3. write.go: begin, whose compare-and-set runs in state_group.go (state.go decides);
//  4. write_apply.go (or conditional.go): apply;
//  5. write.go: finish, or conclude with write_count.go and completeReserving.
//
// Leases use the wall clock of the replicas; they assume clocks agree to well within
// Config.WriteLease.
package catalog

import (
	"errors"
	"time"

	"github.com/elastic/go-elasticsearch/v8"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/controlindex"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/indexlifecycle"
)

// Domain errors; the HTTP layer maps each to its status.
var (
	// ErrInvalid: the request breaks a rule; wrapped with a message naming the place.
	ErrInvalid = errors.New("invalid request")
	// ErrVersionConflict: a conditional write's expectedVersion differs (409).
	ErrVersionConflict = errors.New("record version differs from expectedVersion")
	// ErrIdempotencyMismatch: an idempotency key reused with another body (422).
	ErrIdempotencyMismatch = errors.New("idempotency key was already used with a different request body")
	// ErrPlanLimit: the write would exceed the workspace's maxRecords (402).
	ErrPlanLimit = errors.New("plan limit reached")
	// ErrFenced: a swap is moving the alias; the write waits, then gives up (503).
	ErrFenced = errors.New("the index is switching catalogs; retry shortly")
	// ErrSwapBusy: another swap holds the fence (503 once waiting gives up).
	ErrSwapBusy = errors.New("another catalog replacement is being committed; retry shortly")
	// ErrNotDrained: writes are still pending (internal: the swap waits).
	ErrNotDrained = errors.New("writes still pending")
	// ErrLeaseLost: a writer finished after its lease ran out; the outcome is unknown (503).
	ErrLeaseLost = errors.New("the write took longer than its lease; its outcome is unknown, retry it")
	// ErrBusy: a concurrent request with the same idempotency key or stage is still running (503).
	ErrBusy = errors.New("a request with the same key is still in progress; retry shortly")
)

// Defaults of Config.
const (
	DefaultWriteLease     = 30 * time.Second
	DefaultFenceLease     = 45 * time.Second
	DefaultBuildLease     = 20 * time.Second
	DefaultStageTTL       = 24 * time.Hour
	DefaultIdempotencyTTL = 24 * time.Hour
	DefaultReserveIdle    = 100 * time.Millisecond
	// FillBatch is the number of documents per _bulk when filling a physical index.
	FillBatch = 1000
	// FillWorkers is the number of concurrent _bulk requests of a fill.
	FillWorkers = 1
)

// Config tunes the service. Zero values take the defaults.
type Config struct {
	// WriteLease bounds a write: its revision is dropped from the pending set after it.
	WriteLease time.Duration
	// FenceLease bounds a swap's fence (renewed while the swap waits).
	FenceLease time.Duration
	// BuildLease is the lease of a PUT /records fill, renewed while it runs; a physical
	// index whose lease ran out is the janitor's.
	BuildLease time.Duration
	// StageTTL: a stage without activity for this long is removed with its index; a
	// committed stage's receipt is kept this long.
	StageTTL time.Duration
	// IdempotencyTTL is how long an idempotency key is remembered.
	IdempotencyTTL time.Duration
	// ReserveIdle is how long a replica keeps a revision reserved for its next write to
	// an index before it releases it unused (write_reserve.go).
	ReserveIdle time.Duration
	// Now tells the time; defaults to time.Now.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.WriteLease, DefaultWriteLease)
	def(&c.FenceLease, DefaultFenceLease)
	def(&c.BuildLease, DefaultBuildLease)
	def(&c.StageTTL, DefaultStageTTL)
	def(&c.IdempotencyTTL, DefaultIdempotencyTTL)
	def(&c.ReserveIdle, DefaultReserveIdle)
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Service runs the write path against one Elasticsearch cluster. Its exported
// building blocks (Update, Swap and its steps, NewPhysical, Fill, ...) are what the
// packages stage, rebuild and janitor build on.
type Service struct {
	es     *elasticsearch.TypedClient
	idx    indexlifecycle.Indices
	cfg    Config
	docs   *controlindex.Store
	maps   mappings
	groups stateGroups
	held   idleSlots[Lease]   // this replica's reservations, by control index
	landed idleSlots[[]int64] // the revisions it landed and has not completed
	counts knownCounts
	// owner names this replica's reservations.
	owner string
}

// New returns a service on client.
func New(client *elasticsearch.TypedClient, cfg Config) *Service {
	cfg = cfg.withDefaults()
	return &Service{es: client, idx: indexlifecycle.New(client), cfg: cfg, docs: controlindex.NewStore(client), owner: NewOwner()}
}

// Config returns the service's configuration, with the defaults filled in.
func (s *Service) Config() Config { return s.cfg }

// Client returns the backend's client.
func (s *Service) Client() *elasticsearch.TypedClient { return s.es }

// Docs returns the store of control documents.
func (s *Service) Docs() *controlindex.Store { return s.docs }

// Indices returns the lifecycle requests on physical indices.
func (s *Service) Indices() indexlifecycle.Indices { return s.idx }

// Target is the SearchIndex a request works on, with what the write path needs of it.
type Target struct {
	Names    esnames.Index
	Settings searchv1alpha1.IndexSettings
	// MaxRecords is the workspace's plan limit across its indexes (0: none).
	MaxRecords int64
	// OtherAliases are the aliases of the workspace's other indexes, counted for the plan.
	OtherAliases []string
}

// Receipt is the answer to a write, and the body of GET /indexing.
type Receipt struct {
	AcceptedRevision int64 `json:"acceptedRevision"`
	IndexedRevision  int64 `json:"indexedRevision"`
	RecordCount      int64 `json:"recordCount"`
	// Rejected are the operations of a partial update that were not applied.
	Rejected []Rejection `json:"rejected,omitempty"`
}
