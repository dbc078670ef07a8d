package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/aislehq/aisle/internal/engine/mapping"
)

const snapMagic = "AISLSNP1"

// openIndex loads an index from disk: snapshot, then translog replay, then it brings the
// bleve index up to date with every op bleve had not persisted before a crash.
func openIndex(st *Store, dir string, meta *indexMeta) (*Index, error) {
	ix := &Index{Name: meta.Name, UUID: meta.UUID, Created: time.UnixMilli(meta.Created), dir: dir, store: st,
		docs: map[string]*Doc{}, seqNo: -1}
	m := meta.Mapping
	if m == nil {
		m = &mapping.Mapping{}
	}
	ix.mapping.Store(m)
	set := &Settings{Flat: meta.Settings}
	ix.settings.Store(set)
	a, err := mapping.ParseAnalysis(set.AnalysisTree())
	if err != nil {
		return nil, err
	}
	ix.analysis = a
	if ix.im, err = mapping.BuildIndexMapping(a); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := ix.loadDocs(); err != nil {
		return nil, err
	}
	if err := ix.openBleve(); err != nil {
		return nil, err
	}
	ix.pendingIDs = map[string]int{}
	// Hits of multi-index searches carry the bleve index name; make it the ES name.
	ix.bidx.SetName(ix.Name)
	if err := ix.catchUpBleve(); err != nil {
		return nil, err
	}
	if err := ix.openWAL(); err != nil {
		return nil, err
	}
	ix.lastRefresh.Store(time.Now().UnixNano())
	if len(ix.walGens()) > 1 {
		// Fold replayed translog generations into a snapshot so restarts stay fast.
		if err := ix.checkpoint(); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

func (ix *Index) walGens() []int {
	entries, _ := os.ReadDir(ix.dir)
	var gens []int
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, "translog-") && strings.HasSuffix(name, ".log") {
			if g, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "translog-"), ".log")); err == nil {
				gens = append(gens, g)
			}
		}
	}
	sort.Ints(gens)
	return gens
}

func (ix *Index) walPath(gen int) string {
	return filepath.Join(ix.dir, fmt.Sprintf("translog-%06d.log", gen))
}

func (ix *Index) applyRecord(rec *record) {
	cur := ix.docs[rec.ID]
	if cur != nil && cur.SeqNo >= rec.SeqNo {
		return
	}
	wasLive := cur != nil && !cur.Deleted
	d := &Doc{SeqNo: rec.SeqNo, Term: rec.Term, Version: rec.Version, Deleted: rec.Kind == recDelete}
	if !d.Deleted {
		d.Source = append([]byte(nil), rec.Source...)
	}
	ix.docs[rec.ID] = d
	if wasLive && d.Deleted {
		ix.live--
	} else if !wasLive && !d.Deleted {
		ix.live++
	}
	if rec.SeqNo > ix.seqNo {
		ix.seqNo = rec.SeqNo
	}
}

func (ix *Index) loadDocs() error {
	if err := ix.loadSnapshot(); err != nil {
		return err
	}
	for _, g := range ix.walGens() {
		good, err := readLog(ix.walPath(g), ix.applyRecord)
		if err != nil {
			return err
		}
		// Cut a torn tail so later appends follow a valid record.
		if fi, err := os.Stat(ix.walPath(g)); err == nil && fi.Size() > good {
			if err := os.Truncate(ix.walPath(g), good); err != nil {
				return err
			}
		}
		if g > ix.walGen {
			ix.walGen = g
		}
	}
	return nil
}

func (ix *Index) loadSnapshot() error {
	f, err := os.Open(filepath.Join(ix.dir, "docs.snap"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	hdr := make([]byte, len(snapMagic)+8)
	if _, err := io.ReadFull(br, hdr); err != nil || string(hdr[:len(snapMagic)]) != snapMagic {
		return fmt.Errorf("index %s: corrupt snapshot header", ix.Name)
	}
	ix.seqNo = int64(binary.BigEndian.Uint64(hdr[len(snapMagic):]))
	for {
		rec, err := readRecord(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("index %s: corrupt snapshot: %w", ix.Name, err)
		}
		ix.applyRecord(rec)
	}
}

func (ix *Index) openBleve() error {
	path := ix.bleveDir()
	if _, err := os.Stat(path); err == nil {
		b, err := bleve.OpenUsing(path, scorchConfig())
		if err == nil {
			ix.bidx = b
			return nil
		}
		// An unreadable bleve index is rebuilt from the documents, which are the truth.
		if err := os.RemoveAll(path); err != nil {
			return err
		}
	}
	b, err := bleve.NewUsing(path, ix.im, scorch.Name, scorch.Name, scorchConfig())
	if err != nil {
		return err
	}
	ix.bidx = b
	return nil
}

// scorchConfig lets a refresh return once its segment is searchable, without waiting for
// scorch to persist it: durability comes from our translog, and on open every op newer
// than the seq_no bleve persisted is indexed again.
func scorchConfig() map[string]interface{} {
	return map[string]interface{}{"unsafe_batch": true}
}

// catchUpBleve reindexes every op newer than the seq_no bleve persisted.
func (ix *Index) catchUpBleve() error {
	bseq, err := ix.persistedSeq()
	if err != nil {
		return err
	}
	for _, batch := range catchUpPlan(ix.docs, bseq, catchUpBatchDocs) {
		b := ix.bidx.NewBatch()
		for _, id := range batch.ids {
			if err := ix.reindex(b, id, ix.docs[id]); err != nil {
				return err
			}
		}
		if batch.mark {
			b.SetInternal(seqKey, encodeSeq(ix.seqNo))
		}
		if err := ix.bidx.Batch(b); err != nil {
			return err
		}
	}
	ix.refreshedSeq.Store(ix.seqNo)
	return nil
}

// persistedSeq is the seq_no bleve persisted with its last refresh, or -1. A bleve index
// ahead of the documents (impossible unless files were mixed) is rebuilt from scratch.
func (ix *Index) persistedSeq() (int64, error) {
	raw, _ := ix.bidx.GetInternal(seqKey)
	bseq := int64(-1)
	if raw != nil {
		bseq = decodeSeq(raw)
	}
	if bseq <= ix.seqNo {
		return bseq, nil
	}
	if err := ix.bidx.Close(); err != nil {
		return 0, err
	}
	if err := os.RemoveAll(ix.bleveDir()); err != nil {
		return 0, err
	}
	return -1, ix.openBleve()
}

// reindex adds the current state of document id to b: a delete for a tombstone. A source
// the mapping now refuses is skipped, as it was refused when written.
func (ix *Index) reindex(b *bleve.Batch, id string, d *Doc) error {
	if d.Deleted {
		b.Delete(id)
		return nil
	}
	doc, updated, err := ix.builder().Build(id, d.Source)
	if err != nil {
		return nil
	}
	if updated != nil {
		ix.mapping.Store(updated)
	}
	return b.IndexAdvanced(doc)
}

func (ix *Index) openWAL() error {
	ix.walGen++
	f, err := os.OpenFile(ix.walPath(ix.walGen), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	ix.wal, ix.walSize = f, 0
	return syncDir(ix.dir)
}

// checkpoint writes every document to a snapshot and drops the translog generations it
// covers. Ops written meanwhile go to a fresh generation and are replayed over it.
func (ix *Index) checkpoint() error {
	ix.checkpointMu.Lock()
	defer ix.checkpointMu.Unlock()
	ix.mu.Lock()
	if err := ix.wal.Sync(); err != nil {
		ix.mu.Unlock()
		return err
	}
	old := ix.wal
	if err := ix.openWAL(); err != nil {
		ix.mu.Unlock()
		return err
	}
	keepFrom := ix.walGen
	seq := ix.seqNo
	ids := make([]string, 0, len(ix.docs))
	docs := make([]*Doc, 0, len(ix.docs))
	for id, d := range ix.docs {
		ids = append(ids, id)
		docs = append(docs, d)
	}
	ix.mu.Unlock()
	_ = old.Close()
	if err := ix.writeSnapshot(seq, ids, docs); err != nil {
		return err
	}
	for _, g := range ix.walGens() {
		if g < keepFrom {
			_ = os.Remove(ix.walPath(g))
		}
	}
	return nil
}

func (ix *Index) writeSnapshot(seq int64, ids []string, docs []*Doc) error {
	return writeFileAtomic(ix.dir, "docs.snap", func(w io.Writer) error {
		hdr := append([]byte(snapMagic), make([]byte, 8)...)
		binary.BigEndian.PutUint64(hdr[len(snapMagic):], uint64(seq))
		if _, err := w.Write(hdr); err != nil {
			return err
		}
		var buf []byte
		for i, d := range docs {
			kind := recIndex
			if d.Deleted {
				kind = recDelete
			}
			buf = appendRecord(buf[:0], &record{Kind: kind, SeqNo: d.SeqNo, Term: d.Term, Version: d.Version, ID: ids[i], Source: d.Source})
			if _, err := w.Write(buf); err != nil {
				return err
			}
		}
		return nil
	})
}

// close refreshes, closes bleve (which persists it) and writes a final snapshot.
func (ix *Index) close() error {
	if ix.closed.Swap(true) {
		return nil
	}
	err := ix.Refresh()
	if cerr := ix.checkpoint(); err == nil {
		err = cerr
	}
	if cerr := ix.bidx.Close(); err == nil {
		err = cerr
	}
	ix.mu.Lock()
	if ix.wal != nil {
		_ = ix.wal.Close()
	}
	ix.mu.Unlock()
	return err
}

// drop closes the index without snapshotting, for deletion.
func (ix *Index) drop() {
	ix.useMu.Lock()
	defer ix.useMu.Unlock()
	ix.closed.Store(true)
	ix.refreshMu.Lock()
	_ = ix.bidx.Close()
	ix.refreshMu.Unlock()
	ix.mu.Lock()
	_ = ix.wal.Close()
	ix.mu.Unlock()
}
