package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/zap"
)

// openIndex loads an index from disk: snapshot, then translog replay, then it brings the
// bleve index up to date with every op bleve had not persisted before a crash.
func openIndex(st *Store, dir string, meta *indexMeta) (*Index, error) {
	ix := &Index{Name: meta.Name, UUID: meta.UUID, Created: time.UnixMilli(meta.Created), dir: dir, store: st,
		docs: map[string]docState{}, seqNo: -1}
	m := meta.Mapping
	if m == nil {
		m = &mapper.Mapping{}
	}
	ix.mapping.Store(m)
	set := &Settings{Flat: meta.Settings}
	ix.settings.Store(set)
	a, err := mapper.ParseAnalysis(set.AnalysisTree())
	if err != nil {
		return nil, err
	}
	ix.analysis = a
	if ix.im, err = mapper.BuildIndexMapping(a); err != nil {
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

// applyRecord applies a translog or version-1 snapshot record while opening, appending
// its source to the source file.
func (ix *Index) applyRecord(rec *record) error {
	if cur, ok := ix.docs[rec.ID]; ok && cur.SeqNo >= rec.SeqNo {
		return nil
	}
	d := docState{SeqNo: rec.SeqNo, Version: rec.Version, Deleted: rec.Kind == recDelete}
	if !d.Deleted {
		ref, err := ix.src.Append(rec.Source)
		if err != nil {
			return err
		}
		d.src = ref
	}
	ix.putLocked(rec.ID, d)
	ix.seqNo = max(ix.seqNo, rec.SeqNo)
	return nil
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

func init() {
	scorch.RegisterSegmentPlugin(&zap.ZapPlugin{}, false)
}

// scorchConfig lets a refresh return once its segment is searchable, without waiting for
// scorch to persist it: durability comes from our translog, and on open every op newer
// than the seq_no bleve persisted is indexed again. New indices are written in the
// engine's own segment format (package zap); an index written by an earlier version keeps
// the zapx format recorded in it, which scorch reads back on open.
func scorchConfig() map[string]interface{} {
	return map[string]interface{}{"unsafe_batch": true, "forceSegmentType": zap.Type, "forceSegmentVersion": int(zap.Version)}
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
func (ix *Index) reindex(b *bleve.Batch, id string, d docState) error {
	if d.Deleted {
		b.Delete(id)
		return nil
	}
	src, err := ix.src.Read(d.src)
	if err != nil {
		return err
	}
	doc, updated, err := ix.builder().Build(id, src)
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
	_ = ix.src.Close()
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
	_ = ix.src.Close()
	ix.mu.Unlock()
}
