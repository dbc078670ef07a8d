package store

import (
	"fmt"

	"github.com/aislehq/aisle/internal/engine/sourcefile"
)

// Doc is the realtime state of one document, with its source, as Get returns it.
type Doc struct {
	Source  []byte
	SeqNo   int64
	Term    int64
	Version int64
}

// docState is what the index keeps in memory per document id: where its source lies in
// the source file, not the source. A tombstone (Deleted) keeps the version and seq_no of
// a delete so that re-creating the id continues its version like ES does.
type docState struct {
	src     sourcefile.Ref
	SeqNo   int64
	Version int64
	Deleted bool
}

// sourceCacheBytes bounds the decompressed source blocks a Store keeps in memory, over all
// its indices: enough for the hot part of a catalog, small next to a 1 GiB pod.
const sourceCacheBytes = 64 << 20

// Get returns the realtime state of a document, or nil when it does not exist. Reading
// the source from disk can fail (an I/O error); that is an error, not a missing document.
func (ix *Index) Get(id string) (*Doc, error) {
	ix.mu.Lock()
	d, ok := ix.docs[id]
	src := ix.src
	ix.mu.Unlock()
	if !ok || d.Deleted {
		return nil, nil
	}
	b, err := src.Read(d.src)
	if err != nil {
		return nil, fmt.Errorf("index [%s], document [%s]: %w", ix.Name, id, err)
	}
	return &Doc{Source: b, SeqNo: d.SeqNo, Term: PrimaryTerm, Version: d.Version}, nil
}

// putLocked records the new state of id and keeps the count of live source bytes, which
// tells how much of the source file is garbage. Called with ix.mu held (or while opening).
func (ix *Index) putLocked(id string, d docState) {
	if cur, ok := ix.docs[id]; ok && !cur.Deleted {
		ix.liveRaw -= int64(cur.src.Len)
		ix.live--
	}
	if !d.Deleted {
		ix.liveRaw += int64(d.src.Len)
		ix.live++
	}
	ix.docs[id] = d
}
