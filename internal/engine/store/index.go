// Package store holds indices: documents with their sequence numbers and versions, the
// translog that makes acknowledged writes durable, the bleve index that serves searches,
// refresh semantics, aliases and the metadata file.
package store

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	blevemapping "github.com/blevesearch/bleve/v2/mapping"

	"github.com/aislehq/aisle/internal/engine/mapping"
)

// PrimaryTerm is constant: a single-node engine never fails over to another primary.
const PrimaryTerm = 1

// Doc is the realtime state of one document id; a tombstone keeps the version and seq_no
// of a delete so that re-creating the id continues its version like ES does.
type Doc struct {
	Source  []byte
	SeqNo   int64
	Term    int64
	Version int64
	Deleted bool
}

// Index is one Elasticsearch index.
type Index struct {
	Name    string
	UUID    string
	Created time.Time
	dir     string
	store   *Store

	mapping  atomic.Pointer[mapping.Mapping]
	settings atomic.Pointer[Settings]
	analysis *mapping.Analysis
	im       *blevemapping.IndexMappingImpl

	// mu serialises writes: it guards docs, seqNo, pending and the translog, which makes
	// compare-and-set exact and keeps translog order equal to seq_no order.
	mu         sync.Mutex
	docs       map[string]*Doc
	seqNo      int64
	pending    []*bleve.Batch
	pendingIDs map[string]int
	visibleSeq map[string]int64 // see noteVisibleLocked
	pendingN   int
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
}

// Mapping returns the current mapping (never nil).
func (ix *Index) Mapping() *mapping.Mapping { return ix.mapping.Load() }

// Settings returns the current settings.
func (ix *Index) Settings() *Settings { return ix.settings.Load() }

// Bleve returns the searchable (refreshed) index.
func (ix *Index) Bleve() bleve.Index { return ix.bidx }

// Analysis returns the index's analysis settings (nil when none).
func (ix *Index) Analysis() *mapping.Analysis { return ix.analysis }

// Analyzer resolves a bleve analyzer name registered for this index.
func (ix *Index) Analyzer(name string) analysis.Analyzer {
	if a := ix.im.AnalyzerNamed(name); a != nil {
		return a
	}
	return ix.im.AnalyzerNamed("es:standard")
}

func (ix *Index) builder() *mapping.Builder {
	return &mapping.Builder{Mapping: ix.Mapping(), Analysis: ix.analysis, Analyzer: ix.Analyzer}
}

// Get returns the realtime state of a document, or nil when it does not exist.
func (ix *Index) Get(id string) *Doc {
	ix.mu.Lock()
	d := ix.docs[id]
	ix.mu.Unlock()
	if d == nil || d.Deleted {
		return nil
	}
	return d
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

// Refresh makes every write so far visible to search.
func (ix *Index) Refresh() error {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	ix.mu.Lock()
	parts, seq := ix.pending, ix.seqNo
	if ix.pendingN == 0 {
		ix.mu.Unlock()
		return nil
	}
	ix.pending, ix.pendingIDs = nil, map[string]int{}
	ix.visibleSeq = nil
	ix.pendingN = 0
	ix.mu.Unlock()
	if err := ix.applyParallel(parts); err != nil {
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
// disjoint document ids (see pendingBatch), so their order does not matter.
func (ix *Index) applyParallel(parts []*bleve.Batch) error {
	errs := make(chan error, len(parts))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, p := range parts {
		if p.Size() == 0 {
			errs <- nil
			continue
		}
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

// pendingBatch returns the batch that receives an op on id. An id stays in the part where
// it first appeared in this refresh cycle, so a part never competes with another for the
// same document; new ids go to the last part, and a new part starts when it is full.
func (ix *Index) pendingBatch(id string) *bleve.Batch {
	if p, ok := ix.pendingIDs[id]; ok {
		return ix.pending[p]
	}
	const partDocs = 10000
	n := len(ix.pending)
	if n == 0 || ix.pending[n-1].Size() >= partDocs {
		ix.pending = append(ix.pending, ix.bidx.NewBatch())
		n++
	}
	ix.pendingIDs[id] = n - 1
	return ix.pending[n-1]
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
