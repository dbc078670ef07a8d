package store

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// abandon releases the store's files without the snapshot of a Close, as kill -9 would
// (bleve is closed too, since it locks its directory, but the engine never relies on it).
func (st *Store) abandon() {
	close(st.stop)
	<-st.done
	for _, ix := range st.All() {
		ix.drop()
	}
}

// newTestIndex opens a store on dir with one empty index.
func newTestIndex(t *testing.T, dir, name string) (*Store, *Index) {
	t.Helper()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := st.Create(name, CreateRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return st, ix
}

// writeDoc indexes one document and fails the test unless it is acknowledged.
func writeDoc(t *testing.T, ix *Index, id, src string) {
	t.Helper()
	res, err := ix.Write([]Op{{Kind: OpIndex, ID: id, Source: []byte(src)}})
	if err != nil || res[0].Err != nil {
		t.Fatalf("writing %s: %v %v", id, err, res[0].Err)
	}
}

// wantSources checks the realtime source of every id in want ("" means deleted).
func wantSources(t *testing.T, ix *Index, want map[string]string) {
	t.Helper()
	for id, src := range want {
		d, err := ix.Get(id)
		if err != nil {
			t.Fatalf("get %s: %v", id, err)
		}
		switch {
		case src == "" && d != nil:
			t.Errorf("%s: found %s, want deleted", id, d.Source)
		case src != "" && d == nil:
			t.Errorf("%s: missing, want %s", id, src)
		case src != "" && string(d.Source) != src:
			t.Errorf("%s: source %s, want %s", id, d.Source, src)
		}
	}
}

// source is a document of about 300 bytes, different for every (id, round).
func source(id string, round int) string {
	return fmt.Sprintf(`{"id":%q,"round":%d,"text":%q}`, id, round, strings.Repeat(id+" words ", 30))
}

// TestSourcesSurviveCrashAfterCheckpoint: sources written before a checkpoint are read
// from the source file the snapshot names; those after it, whose blocks were never synced,
// come back from the translog when the store is opened again without being closed (what
// kill -9 leaves). Updates and deletes on both sides of the checkpoint keep their last state.
func TestSourcesSurviveCrashAfterCheckpoint(t *testing.T) {
	dir := t.TempDir()
	st, ix := newTestIndex(t, dir, "crash")
	want := map[string]string{}
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("d%d", i)
		want[id] = source(id, 0)
		writeDoc(t, ix, id, want[id])
	}
	if err := ix.checkpoint(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i += 3 {
		id := fmt.Sprintf("d%d", i)
		want[id] = source(id, 1)
		writeDoc(t, ix, id, want[id])
	}
	if _, err := ix.Write([]Op{{Kind: OpDelete, ID: "d1"}, {Kind: OpDelete, ID: "d2"}}); err != nil {
		t.Fatal(err)
	}
	want["d1"], want["d2"] = "", ""
	wantSources(t, ix, want)

	// No Close, so no snapshot: a second store opens the files as a restarted process would.
	st.abandon()
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	wantSources(t, again.Index("crash"), want)
	if n := again.Index("crash").DocCountRealtime(); n != 298 {
		t.Errorf("%d live documents, want 298", n)
	}
}

// TestCheckpointCompactsGarbage: once most of the source file is replaced sources, a
// checkpoint rewrites it with the live ones only, and a reopened store reads them there.
func TestCheckpointCompactsGarbage(t *testing.T) {
	dir := t.TempDir()
	st, ix := newTestIndex(t, dir, "compact")
	want := map[string]string{}
	// 100 ids rewritten until the garbage passes compactMinGarbage.
	for round := 0; ix.src.Raw()-ix.liveRaw <= compactMinGarbage; round++ {
		ops := make([]Op, 100)
		for i := range ops {
			id := fmt.Sprintf("d%d", i)
			want[id] = source(id, round)
			ops[i] = Op{Kind: OpIndex, ID: id, Source: []byte(want[id])}
		}
		if _, err := ix.Write(ops); err != nil {
			t.Fatal(err)
		}
	}
	before := ix.srcGen
	if err := ix.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if ix.srcGen != before+1 {
		t.Fatalf("source generation %d after the checkpoint, want %d", ix.srcGen, before+1)
	}
	if garbage := ix.src.Raw() - ix.liveRaw; garbage != 0 {
		t.Errorf("%d bytes of garbage after compaction, want 0", garbage)
	}
	wantSources(t, ix, want)
	if _, err := os.Stat(filepath.Join(ix.dir, fmt.Sprintf("sources-%06d.dat", before))); !os.IsNotExist(err) {
		t.Errorf("the old source file is still there: %v", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	wantSources(t, again.Index("compact"), want)
}

// TestReadsVersion1Snapshot: a data directory of an earlier release, whose docs.snap held
// the sources themselves, opens with those sources.
func TestReadsVersion1Snapshot(t *testing.T) {
	dir := t.TempDir()
	st, ix := newTestIndex(t, dir, "old")
	writeDoc(t, ix, "d0", `{"a":0}`)
	idxDir := ix.dir
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	old := []byte(snapMagicV1)
	old = binary.BigEndian.AppendUint64(old, 2)
	want := map[string]string{"d0": ""}
	for seq := int64(1); seq <= 2; seq++ {
		id := fmt.Sprintf("d%d", seq)
		want[id] = fmt.Sprintf(`{"v1":%d}`, seq)
		old = appendRecord(old, &record{Kind: recIndex, SeqNo: seq, Term: 1, Version: 1, ID: id, Source: []byte(want[id])})
	}
	old = appendRecord(old, &record{Kind: recDelete, SeqNo: 0, Term: 1, Version: 2, ID: "d0"})
	files, _ := filepath.Glob(filepath.Join(idxDir, "*-*.*"))
	for _, f := range files {
		_ = os.Remove(f) // translog and source files of the new format
	}
	if err := os.WriteFile(filepath.Join(idxDir, snapName), old, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	wantSources(t, again.Index("old"), want)
}

// TestWriteSyncedByTheCheckpointThatClosedItsTranslog: a writer appends its records
// under the lock and fsyncs outside it; a checkpoint that cuts the translog meanwhile
// fsyncs the old generation under the lock, then closes it. The writer's own fsync then
// meets a closed file, yet its records are on disk: the write is acknowledged, and it
// survives a crash (two bulk clients got a 500 for this).
func TestWriteSyncedByTheCheckpointThatClosedItsTranslog(t *testing.T) {
	dir := t.TempDir()
	st, ix := newTestIndex(t, dir, "cut")
	src := source("a", 0)
	_, w, err := ix.applyOps([]Op{{Kind: OpIndex, ID: "a", Source: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.checkpoint(); err != nil {
		t.Fatal(err)
	}
	if err := ix.makeDurable(w); err != nil {
		t.Fatalf("a write whose translog a checkpoint synced and closed: %v", err)
	}
	st.abandon()
	again, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	wantSources(t, again.Index("cut"), map[string]string{"a": src})
}
