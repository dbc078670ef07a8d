package store

import (
	"errors"
	"fmt"
	"os"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// OpKind is a write operation type.
type OpKind int

// Write operation kinds.
const (
	OpIndex OpKind = iota
	OpCreate
	OpDelete
	// OpUpdate writes the source its Update computes from the current one.
	OpUpdate
)

// Updater computes an update's new source from the current one (nil: no document),
// under the index's write lock, so concurrent updates of one document never lose one.
// noop leaves the document as it is.
type Updater interface {
	Apply(cur []byte) (src []byte, noop bool, err error)
}

// Op is one document write; IfSeqNo/IfPrimaryTerm make it a compare-and-set.
type Op struct {
	Kind          OpKind
	ID            string
	Source        []byte
	IfSeqNo       *int64
	IfPrimaryTerm *int64
	// External is an externally versioned write: the document takes this version, which
	// must be above the current one (at least it, with ExternalGTE).
	External    *int64
	ExternalGTE bool
	// Update is the update of an OpUpdate; applying it sets Source to the new source (the
	// current one for a noop) and Kind to the write it became.
	Update Updater
}

// translogSize is about the size of the translog records of ops, so that a bulk's records
// are encoded into one buffer allocated once.
func translogSize(ops []Op) int {
	n := 0
	for i := range ops {
		n += recordOverhead + len(ops[i].ID) + len(ops[i].Source)
	}
	return n
}

// Result is the outcome of one Op, shaped for ES responses.
type Result struct {
	ID      string
	Version int64
	SeqNo   int64
	Term    int64
	Result  string // created, updated, deleted, not_found, noop
	Status  int
	Err     *eserr.Error
}

// A checkpoint (a snapshot of every document's state, the translog cut) starts when the
// translog passes maxWALBeforeCheckpoint, or snapshotBytesPerDoc per document if that is
// more, so that snapshots never write more than the translog did.
const (
	maxWALBeforeCheckpoint = 32 << 20
	snapshotBytesPerDoc    = 64
)

// Write applies ops in order under the index write lock and makes them durable with one
// fsync before returning: a Result without Err is an acknowledged, crash-safe write.
func (ix *Index) Write(ops []Op) ([]Result, error) {
	if ix.closed.Load() {
		return nil, eserr.New(500, "already_closed_exception", "index [%s] is closed", ix.Name)
	}
	results, w, err := ix.applyOps(ops)
	if err != nil {
		return nil, err
	}
	if err := ix.makeDurable(w); err != nil {
		return nil, err
	}
	if err := ix.followUp(w); err != nil {
		return nil, err
	}
	return results, nil
}

// batchWrite is what applying a batch under the lock leaves to do after it.
type batchWrite struct {
	wal            *os.File
	logged         bool // records of the batch were appended to wal
	mappingChanged bool
	checkpoint     bool // the translog has grown enough for a checkpoint
	pending        int  // unrefreshed operations after the batch
}

// applyOps applies ops in order under the lock and appends their records to the translog.
func (ix *Index) applyOps(ops []Op) ([]Result, batchWrite, error) {
	results := make([]Result, len(ops))
	buf := make([]byte, 0, translogSize(ops))
	ix.mu.Lock()
	defer ix.mu.Unlock()
	startMapping := ix.Mapping()
	for i := range ops {
		var rec *record
		results[i], rec = ix.applyLocked(&ops[i])
		if rec != nil {
			buf = appendRecord(buf, rec)
		}
	}
	w := batchWrite{wal: ix.wal, logged: len(buf) > 0, mappingChanged: ix.Mapping() != startMapping}
	if w.logged {
		if _, err := ix.wal.Write(buf); err != nil {
			return nil, w, fmt.Errorf("translog write: %w", err)
		}
		ix.walSize += int64(len(buf))
	}
	w.checkpoint = ix.walSize > max(maxWALBeforeCheckpoint, int64(len(ix.docs))*snapshotBytesPerDoc)
	w.pending = ix.pendingN
	return results, w, nil
}

// makeDurable saves a changed mapping and fsyncs the translog. The fsync runs outside the
// lock: it also covers records appended by other writers before it, and no result is
// returned to a client before its own record is synced.
func (ix *Index) makeDurable(w batchWrite) error {
	if w.mappingChanged {
		if err := ix.store.saveMeta(); err != nil {
			return err
		}
	}
	if w.logged {
		// A checkpoint that cut the translog since fsynced it under the lock, after these
		// records were appended, before closing it: a closed file holds them on disk.
		if err := w.wal.Sync(); err != nil && !errors.Is(err, os.ErrClosed) && !ix.closed.Load() {
			return fmt.Errorf("translog sync: %w", err)
		}
	}
	return nil
}

// followUp starts a checkpoint of a big translog, and a refresh when enough writes wait.
func (ix *Index) followUp(w batchWrite) error {
	if w.checkpoint {
		go func() { _ = ix.checkpoint() }()
	}
	ix.holdPending(w.pending)
	return nil
}

func (ix *Index) conflict(id, detail string) *eserr.Error {
	return eserr.VersionConflict(ix.Name, ix.UUID, id, detail)
}

// applyLocked validates and applies one op to the realtime state and the pending batch.
func (ix *Index) applyLocked(op *Op) (Result, *record) {
	cur, found := ix.docs[op.ID]
	ix.noteVisibleLocked(op.ID, cur, found)
	exists := found && !cur.Deleted
	if op.Kind == OpUpdate {
		if res, done := ix.updateLocked(op, cur, exists); done {
			return res, nil
		}
	}
	conflict := ix.checkPreconditions(op, cur, exists)
	if conflict == nil {
		conflict = ix.checkExternal(op, cur, found)
	}
	if conflict != nil {
		return Result{ID: op.ID, Status: 409, Err: conflict}, nil
	}
	version := int64(1)
	if found {
		version = cur.Version + 1
	}
	if op.External != nil {
		version = *op.External
	}
	if op.Kind == OpDelete {
		return ix.deleteLocked(op.ID, version, exists)
	}
	doc, updated, err := ix.builder().Build(op.ID, op.Source)
	if err != nil {
		e := eserr.As(err)
		return Result{ID: op.ID, Status: e.Status, Err: e}, nil
	}
	ref, err := ix.src.Append(op.Source)
	if err != nil {
		e := eserr.New(500, "exception", "index [%s]: %v", ix.Name, err)
		return Result{ID: op.ID, Status: e.Status, Err: e}, nil
	}
	if updated != nil {
		ix.mapping.Store(updated)
	}
	ix.addPending(op.ID, doc)
	ix.pendingN++
	seq := ix.nextSeq()
	ix.putLocked(op.ID, docState{src: ref, SeqNo: seq, Version: version})
	res := Result{ID: op.ID, Version: version, SeqNo: seq, Term: PrimaryTerm, Result: "updated", Status: 200}
	if !exists {
		res.Result, res.Status = "created", 201
	}
	return res, &record{Kind: recIndex, SeqNo: seq, Term: PrimaryTerm, Version: version, ID: op.ID, Source: op.Source}
}

// updateLocked turns an update into the write of its new source (op.Kind becomes
// OpIndex, or OpCreate for an upsert), or answers it when it writes nothing: a missing
// document, a conflict, a noop. ES checks if_seq_no against the document it read, so a
// missing document is a 404 before it is a conflict.
func (ix *Index) updateLocked(op *Op, cur docState, exists bool) (Result, bool) {
	var old []byte
	if exists {
		if conflict := ix.checkPreconditions(op, cur, exists); conflict != nil {
			return Result{ID: op.ID, Status: 409, Err: conflict}, true
		}
		b, err := ix.src.Read(cur.src)
		if err != nil {
			e := eserr.New(500, "exception", "index [%s], document [%s]: %v", ix.Name, op.ID, err)
			return Result{ID: op.ID, Status: e.Status, Err: e}, true
		}
		old = b
	}
	src, noop, err := op.Update.Apply(old)
	if err != nil {
		e := eserr.As(err)
		return Result{ID: op.ID, Status: e.Status, Err: e}, true
	}
	op.Source = src
	if noop {
		return Result{ID: op.ID, Version: cur.Version, SeqNo: cur.SeqNo, Term: PrimaryTerm, Result: "noop", Status: 200}, true
	}
	op.Kind = OpIndex
	if !exists {
		op.Kind = OpCreate
	}
	return Result{}, false
}

// checkPreconditions is the version conflict of op against the current document, if any:
// if_seq_no/if_primary_term that do not match it, or op_type=create over a live document.
func (ix *Index) checkPreconditions(op *Op, cur docState, exists bool) *eserr.Error {
	if op.IfSeqNo != nil || op.IfPrimaryTerm != nil {
		seq, term := int64(-2), int64(0)
		if op.IfSeqNo != nil {
			seq = *op.IfSeqNo
		}
		if op.IfPrimaryTerm != nil {
			term = *op.IfPrimaryTerm
		}
		if !exists {
			return ix.conflict(op.ID, fmt.Sprintf("required seqNo [%d], primary term [%d]. but no document was found", seq, term))
		}
		if cur.SeqNo != seq || PrimaryTerm != term {
			return ix.conflict(op.ID, fmt.Sprintf("required seqNo [%d], primary term [%d]. current document has seqNo [%d] and primary term [%d]", seq, term, cur.SeqNo, PrimaryTerm))
		}
	}
	if op.Kind == OpCreate && exists {
		return ix.conflict(op.ID, fmt.Sprintf("document already exists (current version [%d])", cur.Version))
	}
	return nil
}

// checkExternal is the conflict of an externally versioned op with the current version
// (of the document or its tombstone), as ES's external and external_gte version types.
func (ix *Index) checkExternal(op *Op, cur docState, found bool) *eserr.Error {
	switch {
	case op.External == nil || !found:
		return nil
	case op.ExternalGTE && cur.Version > *op.External:
		return ix.conflict(op.ID, fmt.Sprintf("current version [%d] is higher than the one provided [%d]", cur.Version, *op.External))
	case !op.ExternalGTE && cur.Version >= *op.External:
		return ix.conflict(op.ID, fmt.Sprintf("current version [%d] is higher or equal to the one provided [%d]", cur.Version, *op.External))
	}
	return nil
}

// deleteLocked records a delete of id as a tombstone; deleting a missing document still
// takes a sequence number and a version, as in ES, and answers not_found.
func (ix *Index) deleteLocked(id string, version int64, exists bool) (Result, *record) {
	seq := ix.nextSeq()
	ix.putLocked(id, docState{SeqNo: seq, Version: version, Deleted: true})
	res := Result{ID: id, Version: version, SeqNo: seq, Term: PrimaryTerm, Result: "deleted", Status: 200}
	if !exists {
		res.Result, res.Status = "not_found", 404
	}
	ix.addPending(id, nil)
	ix.pendingN++
	return res, &record{Kind: recDelete, SeqNo: seq, Term: PrimaryTerm, Version: version, ID: id}
}

func (ix *Index) nextSeq() int64 {
	ix.seqNo++
	return ix.seqNo
}

// PutMapping merges an update into the mapping under the write lock (so no document is
// built against a stale mapping mid-update) and persists it.
func (ix *Index) PutMapping(update *mapper.Mapping) error {
	ix.mu.Lock()
	merged, err := mapper.Merge(ix.Mapping(), update)
	if err == nil {
		err = validateAnalyzers(merged, ix.analysis)
	}
	if err == nil {
		ix.mapping.Store(merged)
	}
	ix.mu.Unlock()
	if err != nil {
		return err
	}
	return ix.store.saveMeta()
}

func validateAnalyzers(m *mapper.Mapping, a *mapper.Analysis) error {
	for _, name := range m.Analyzers() {
		if !mapper.KnownAnalyzer(name, a) {
			return eserr.MapperParsing("Failed to parse mapping: analyzer [%s] has not been configured in mappings", name)
		}
	}
	return nil
}
