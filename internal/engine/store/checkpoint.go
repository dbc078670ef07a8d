package store

import (
	"bufio"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"

	"github.com/aislehq/aisle/internal/engine/sourcefile"
)

// A checkpoint rewrites the source file without its garbage (sources of updated and
// deleted documents) once the garbage is more than the live sources and compactMinGarbage.
const compactMinGarbage = 16 << 20

// checkpointState is what a checkpoint copies under the write lock.
type checkpointState struct {
	header  snapHeader
	ids     []string
	docs    []docState
	oldWAL  *os.File
	keepGen int // the first translog generation the snapshot does not cover
}

// checkpoint writes every document's state to a snapshot and drops the translog
// generations it covers. The source file is synced first, so every source the snapshot
// points at is on disk; ops written meanwhile go to a fresh translog generation and are
// replayed over the snapshot.
func (ix *Index) checkpoint() error {
	ix.checkpointMu.Lock()
	defer ix.checkpointMu.Unlock()
	cs, err := ix.cutForCheckpoint()
	if err != nil {
		return err
	}
	_ = cs.oldWAL.Close()
	if err := ix.src.Sync(); err != nil {
		return err
	}
	if err := ix.writeSnapshot(cs); err != nil {
		return err
	}
	for _, g := range ix.walGens() {
		if g < cs.keepGen {
			_ = os.Remove(ix.walPath(g))
		}
	}
	ix.removeSourcesExcept(int(cs.header.SrcGen))
	return nil
}

// cutForCheckpoint starts a new translog generation, compacts the source file if it is
// mostly garbage, writes its open block, and copies every document's state.
func (ix *Index) cutForCheckpoint() (*checkpointState, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.wal.Sync(); err != nil {
		return nil, err
	}
	cs := &checkpointState{oldWAL: ix.wal}
	if err := ix.openWAL(); err != nil {
		return nil, err
	}
	cs.keepGen = ix.walGen
	if ix.src.Raw()-ix.liveRaw > max(ix.liveRaw, compactMinGarbage) {
		if err := ix.compactLocked(); err != nil {
			return nil, err
		}
	}
	size, err := ix.src.Seal()
	if err != nil {
		return nil, err
	}
	cs.header = snapHeader{SeqNo: ix.seqNo, SrcGen: int64(ix.srcGen), SrcSize: size, SrcRaw: ix.src.Raw(), Count: int64(len(ix.docs))}
	cs.ids = make([]string, 0, len(ix.docs))
	cs.docs = make([]docState, 0, len(ix.docs))
	for id, d := range ix.docs {
		cs.ids = append(cs.ids, id)
		cs.docs = append(cs.docs, d)
	}
	return cs, nil
}

// compactLocked copies the live sources into the next source file generation and points
// the documents at it. The old file stays open for reads that started before (its
// descriptor is closed when the last reference goes); the checkpoint deletes its name
// once the snapshot naming the new generation is written. Called with ix.mu held.
func (ix *Index) compactLocked() error {
	gen := ix.srcGen + 1
	_ = os.Remove(ix.srcPath(gen))
	next, err := sourcefile.Open(ix.srcPath(gen), 0, 0, ix.store.cache)
	if err != nil {
		return err
	}
	moved := make(map[string]sourcefile.Ref, ix.live)
	for id, d := range ix.docs {
		if d.Deleted {
			continue
		}
		b, err := ix.src.Read(d.src)
		if err == nil {
			moved[id], err = next.Append(b)
		}
		if err != nil {
			_ = next.Close()
			return err
		}
	}
	for id, ref := range moved {
		d := ix.docs[id]
		d.src = ref
		ix.docs[id] = d
	}
	ix.src, ix.srcGen = next, gen
	return nil
}

// writeSnapshot writes docs.snap atomically: header, entries, and a checksum of both.
func (ix *Index) writeSnapshot(cs *checkpointState) error {
	return writeFileAtomic(ix.dir, snapName, func(w io.Writer) error {
		if _, err := io.WriteString(w, snapMagicV2); err != nil {
			return err
		}
		crc := crc32.NewIEEE()
		bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 64<<10)
		if err := binary.Write(bw, binary.BigEndian, &cs.header); err != nil {
			return err
		}
		var buf []byte
		for i, d := range cs.docs {
			buf = appendSnapEntry(buf[:0], cs.ids[i], d)
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := w.Write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
		return err
	})
}
