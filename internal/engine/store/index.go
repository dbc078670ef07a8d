// Package store holds indices: documents with their sequence numbers and versions, the
// translog that makes acknowledged writes durable, the bleve index that serves searches,
// refresh semantics, aliases and the metadata file.
package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	blevemapping "github.com/blevesearch/bleve/v2/mapping"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/sourcefile"
)

// PrimaryTerm is constant: a single-node engine never fails over to another primary.
const PrimaryTerm = 1

// Index is one Elasticsearch index.
type Index struct {
	Name    string
	UUID    string
	Created time.Time
	dir     string
	store   *Store

	mapping  atomic.Pointer[mapper.Mapping]
	settings atomic.Pointer[Settings]
	analysis *mapper.Analysis
	im       *blevemapping.IndexMappingImpl

	// mu serialises writes: it guards docs, seqNo, pending and the translog, which makes
	// compare-and-set exact and keeps translog order equal to seq_no order.
	mu         sync.Mutex
	docs       map[string]docState
	src        *sourcefile.File
	srcGen     int
	liveRaw    int64 // raw bytes of live sources, against src.Raw() for garbage
	seqNo      int64
	pending    []pendingOp
	pendingIDs map[string]int
	visibleSeq map[string]int64 // see noteVisibleLocked
	pendingN   int
	taken      chan struct{} // closed when a refresh takes the pending operations
	wal        *os.File
	walGen     int
	walSize    int64
	live       int

	// refreshMu orders refreshes so batches reach bleve in seq_no order.
	refreshMu    sync.Mutex
	bidx         bleve.Index
	refreshedSeq atomic.Int64
	lastRefresh  atomic.Int64

	checkpointMu sync.Mutex
	closed       atomic.Bool
	asyncRefresh atomic.Bool

	// useMu is held shared by searches in flight; dropping an index takes it exclusively
	// so an index removed by an alias swap is closed only after its last reader finished.
	useMu sync.RWMutex

	frozen bool   // a read-only copy of one moment (see Freeze)
	origin *Index // the live index a frozen one was made of
}

// Mapping returns the current mapping (never nil).
func (ix *Index) Mapping() *mapper.Mapping { return ix.mapping.Load() }

// Store returns the store holding the index, to resolve other index names.
func (ix *Index) Store() *Store { return ix.store }

// Settings returns the current settings.
func (ix *Index) Settings() *Settings { return ix.settings.Load() }

// Bleve returns the searchable (refreshed) index.
func (ix *Index) Bleve() bleve.Index { return ix.bidx }

// Analysis returns the index's analysis settings (nil when none).
func (ix *Index) Analysis() *mapper.Analysis { return ix.analysis }

// Analyzer resolves a bleve analyzer name registered for this index.
func (ix *Index) Analyzer(name string) analysis.Analyzer {
	if a := ix.im.AnalyzerNamed(name); a != nil {
		return a
	}
	return ix.im.AnalyzerNamed("es:standard")
}

func (ix *Index) builder() *mapper.Builder {
	return &mapper.Builder{Mapping: ix.Mapping(), Analysis: ix.analysis, Analyzer: ix.Analyzer}
}

// DocCountRealtime is the number of live documents including unrefreshed ones.
func (ix *Index) DocCountRealtime() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.live
}

// SearchableCount is the number of documents visible to search.
func (ix *Index) SearchableCount() uint64 {
	n, _ := ix.bidx.DocCount()
	return n
}

// SearchedSeq identifies what searches of the index see: the seq_no of the last write a
// refresh made visible. Merges leave it; every change searches can see moves it.
func (ix *Index) SearchedSeq() int64 { return ix.refreshedSeq.Load() }

// Refresh makes every write so far visible to search.
func (ix *Index) Refresh() error {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	ix.mu.Lock()
	ops, seq, ok := ix.takePendingLocked()
	ix.mu.Unlock()
	if !ok {
		return nil
	}
	return ix.applyRefresh(ops, seq)
}

// takePendingLocked takes the operations waiting for a refresh and the seq_no they reach;
// ok is false when none wait. Called with refreshMu and ix.mu held.
func (ix *Index) takePendingLocked() (ops []pendingOp, seq int64, ok bool) {
	ops, seq = ix.pending, ix.seqNo
	if ix.pendingN == 0 {
		return nil, 0, false
	}
	ix.pending, ix.pendingIDs = nil, map[string]int{}
	ix.visibleSeq = nil
	ix.pendingN = 0
	ix.tookPendingLocked()
	return ops, seq, true
}

// applyRefresh builds the segments of ops and makes them searchable. Called with
// refreshMu held.
func (ix *Index) applyRefresh(ops []pendingOp, seq int64) error {
	batches, err := ix.batches(ops)
	if err != nil {
		return err
	}
	if err := ix.applyParallel(batches); err != nil {
		return err
	}
	// The seq_no checkpoint goes in its own batch after every part is introduced: scorch
	// persists in introduction order, so a persisted checkpoint implies persisted parts.
	mark := ix.bidx.NewBatch()
	mark.SetInternal(seqKey, encodeSeq(seq))
	if err := ix.bidx.Batch(mark); err != nil {
		return err
	}
	ix.refreshedSeq.Store(seq)
	ix.lastRefresh.Store(time.Now().UnixNano())
	return nil
}

// applyParallel builds the segments of a refresh concurrently: bleve builds one segment
// per batch on one goroutine, so parts of a large refresh use every core. Parts hold
// disjoint document ids (see addPending), so their order does not matter.
func (ix *Index) applyParallel(parts []*bleve.Batch) error {
	errs := make(chan error, len(parts))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, p := range parts {
		sem <- struct{}{}
		go func(p *bleve.Batch) {
			defer func() { <-sem }()
			errs <- ix.bidx.Batch(p)
		}(p)
	}
	var first error
	for range parts {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// pendingOp is a write waiting for the next refresh; a nil doc is a delete.
type pendingOp struct {
	id  string
	doc *document.Document
}

// addPending queues a write for the next refresh. The last write to an id in a refresh
// cycle is the one applied, as in one bleve batch.
func (ix *Index) addPending(id string, doc *document.Document) {
	if i, ok := ix.pendingIDs[id]; ok {
		ix.pending[i].doc = doc
		return
	}
	ix.pendingIDs[id] = len(ix.pending)
	ix.pending = append(ix.pending, pendingOp{id: id, doc: doc})
}

// Parts of a refresh hold about maxPartDocs operations (at most half as many again); a
// refresh of at least minPartDocs per core is split evenly over the cores, in a multiple
// of their number of parts, so that no core waits for the last part of another.
const (
	maxPartDocs = 10000
	minPartDocs = 2000
)

// partCount is how many parts (segments) a refresh of n operations builds.
func partCount(n, procs int) int {
	k := max(1, (n+maxPartDocs/2)/maxPartDocs)
	if procs > 1 && n >= procs*minPartDocs {
		k = (k + procs - 1) / procs * procs
	}
	return k
}

// batches splits ops into the bleve batches of a refresh, evenly.
func (ix *Index) batches(ops []pendingOp) ([]*bleve.Batch, error) {
	k := partCount(len(ops), runtime.GOMAXPROCS(0))
	size := (len(ops) + k - 1) / k
	parts := make([]*bleve.Batch, 0, k)
	for start := 0; start < len(ops); start += size {
		b := ix.bidx.NewBatch()
		for _, op := range ops[start:min(start+size, len(ops))] {
			if op.doc == nil {
				b.Delete(op.id)
			} else if err := b.IndexAdvanced(op.doc); err != nil {
				return nil, fmt.Errorf("indexing document [%s]: %w", op.id, err)
			}
		}
		parts = append(parts, b)
	}
	return parts, nil
}

// NeedsRefresh reports unrefreshed writes older than the refresh interval.
func (ix *Index) needsRefresh(now time.Time) bool {
	iv := ix.Settings().RefreshInterval()
	if iv < 0 {
		return false
	}
	ix.mu.Lock()
	n := ix.pendingN
	ix.mu.Unlock()
	return n > 0 && now.Sub(time.Unix(0, ix.lastRefresh.Load())) >= iv
}

var seqKey = []byte("aisle_seq_no")

func encodeSeq(s int64) []byte {
	b := make([]byte, 8)
	for i := 0; i < 8; i++ {
		b[i] = byte(uint64(s) >> (56 - 8*i))
	}
	return b
}

func decodeSeq(b []byte) int64 {
	if len(b) != 8 {
		return -1
	}
	var v uint64
	for i := 0; i < 8; i++ {
		v = v<<8 | uint64(b[i])
	}
	return int64(v)
}

func (ix *Index) bleveDir() string { return filepath.Join(ix.dir, "bleve") }
