package store

import (
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

// frozenType is the bleve index type of a frozen index: every reader it gives is the one
// scorch snapshot it was made with, so searches of it see the segments of one moment.
const frozenType = "aisle-frozen"

func init() {
	registry.RegisterIndexType(frozenType, newFrozenBleve)
}

// ErrReadOnly refuses a change to a frozen index.
var ErrReadOnly = errors.New("a point in time is read-only")

// frozenBleve is a bleve index over one held scorch snapshot. Each Reader takes a
// reference that the search's Close gives back; Close gives back the one it holds, after
// which scorch may release the snapshot's segments (and delete the files of those merged
// away meanwhile).
type frozenBleve struct {
	snap     *scorch.IndexSnapshot
	internal map[string][]byte
}

func newFrozenBleve(_ string, config map[string]any, _ *index.AnalysisQueue) (index.Index, error) {
	snap, ok := config["snapshot"].(*scorch.IndexSnapshot)
	if !ok {
		return nil, fmt.Errorf("a frozen index needs a scorch snapshot")
	}
	return &frozenBleve{snap: snap, internal: map[string][]byte{}}, nil
}

func (f *frozenBleve) Open() error  { return nil }
func (f *frozenBleve) Close() error { return f.snap.DecRef() }

func (f *frozenBleve) Update(index.Document) error { return ErrReadOnly }
func (f *frozenBleve) Delete(string) error         { return ErrReadOnly }
func (f *frozenBleve) Batch(*index.Batch) error    { return ErrReadOnly }

// SetInternal keeps what bleve records when it makes the index (its mapping) in memory.
func (f *frozenBleve) SetInternal(key, val []byte) error {
	f.internal[string(key)] = val
	return nil
}
func (f *frozenBleve) DeleteInternal(key []byte) error { return ErrReadOnly }

func (f *frozenBleve) Reader() (index.IndexReader, error) {
	f.snap.AddRef()
	return f.snap, nil
}

func (f *frozenBleve) StatsMap() map[string]any { return map[string]any{} }

// Freeze returns a read-only copy of the index as of now: it refreshes first, so the copy
// holds every write acknowledged so far, and then holds the refreshed segments and the
// documents' states (where their sources lie; the source file stays open while anything
// refers to it, see compactLocked). Later writes, deletes, merges and compactions leave
// it unchanged. Writers wait while it is taken, for one refresh. Release frees it.
func (ix *Index) Freeze() (*Index, error) {
	ix.refreshMu.Lock()
	defer ix.refreshMu.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.closed.Load() {
		return nil, fmt.Errorf("index %s: closed", ix.Name)
	}
	if ops, seq, ok := ix.takePendingLocked(); ok {
		if err := ix.applyRefresh(ops, seq); err != nil {
			return nil, fmt.Errorf("index %s: refreshing for a point in time: %w", ix.Name, err)
		}
	}
	bi, err := ix.frozenBleve()
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", ix.Name, err)
	}
	fz := &Index{Name: ix.Name, UUID: ix.UUID, Created: ix.Created, dir: ix.dir, store: ix.store,
		analysis: ix.analysis, im: ix.im, docs: liveDocs(ix.docs, ix.live), src: ix.src, srcGen: ix.srcGen,
		seqNo: ix.seqNo, live: ix.live, bidx: bi, frozen: true, origin: ix}
	fz.mapping.Store(ix.mapping.Load())
	fz.settings.Store(ix.settings.Load())
	fz.refreshedSeq.Store(ix.refreshedSeq.Load())
	fz.lastRefresh.Store(ix.lastRefresh.Load())
	return fz, nil
}

// frozenBleve makes a bleve index over the current scorch snapshot.
func (ix *Index) frozenBleve() (bleve.Index, error) {
	adv, err := ix.bidx.Advanced()
	if err != nil {
		return nil, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		_ = r.Close()
		return nil, fmt.Errorf("the index's reader is a %T, not a scorch snapshot", r)
	}
	bi, err := bleve.NewUsing("", ix.im, frozenType, frozenType, map[string]any{"snapshot": snap})
	if err != nil {
		_ = snap.DecRef()
		return nil, err
	}
	bi.SetName(ix.Name)
	return bi, nil
}

// liveDocs copies the states of the live documents (a frozen index serves no version
// history, so tombstones stay behind).
func liveDocs(docs map[string]docState, live int) map[string]docState {
	out := make(map[string]docState, live)
	for id, d := range docs {
		if !d.Deleted {
			out[id] = d
		}
	}
	return out
}

// Gone reports whether a frozen index's index was deleted (or the store closed) since:
// the sources it refers to are closed with it, so it can no longer be read.
func (ix *Index) Gone() bool { return ix.origin != nil && ix.origin.closed.Load() }

// Frozen reports whether the index is a copy Freeze made.
func (ix *Index) Frozen() bool { return ix.frozen }

// Release gives back the segments a frozen index holds; it is a no-op on a live index
// and on a second call.
func (ix *Index) Release() error {
	if !ix.frozen || ix.closed.Swap(true) {
		return nil
	}
	return ix.bidx.Close()
}
