package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zapx "github.com/blevesearch/zapx/v17"

	"github.com/aislehq/aisle/internal/engine/zap"
)

// TestSegmentFormat: a new index is written in the engine's own segment format, and an
// index an earlier version wrote in zapx v17 keeps that format, and answers phrase
// queries, when this version opens it.
func TestSegmentFormat(t *testing.T) {
	for _, c := range []struct {
		name   string
		zapx   bool
		plugin interface {
			Open(string) (segment.Segment, error)
		}
	}{
		{name: "new", plugin: &zap.ZapPlugin{}},
		{name: "earlier", zapx: true, plugin: &zapx.ZapPlugin{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			st, ix := newTestIndex(t, dir, "products")
			writeDoc(t, ix, "1", `{"title":"red leather shoe"}`)
			writeDoc(t, ix, "2", `{"title":"leather shoe red"}`)
			if c.zapx {
				recreateAsZapx(t, ix)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			wantSegmentsOpenWith(t, filepath.Join(dir, "indices", ix.UUID, "bleve", "store"), c.plugin)

			st, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := st.Index("products").Bleve().Search(bleve.NewSearchRequest(bleve.NewPhraseQuery([]string{"red", "leather"}, "title")))
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != 1 || res.Hits[0].ID != "1" {
				t.Errorf("phrase [red leather] found %d hits (%v), want document 1 only", res.Total, res.Hits)
			}
			// Later writes keep the index's format: scorch merges segments of one format only.
			writeDoc(t, st.Index("products"), "3", `{"title":"red leather bag"}`)
			if err := st.Index("products").Refresh(); err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			wantSegmentsOpenWith(t, filepath.Join(dir, "indices", ix.UUID, "bleve", "store"), c.plugin)
		})
	}
}

// recreateAsZapx replaces ix's bleve index with one in zapx v17 holding the same
// documents, as an earlier version wrote them.
func recreateAsZapx(t *testing.T, ix *Index) {
	t.Helper()
	if err := ix.bidx.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(ix.bleveDir()); err != nil {
		t.Fatal(err)
	}
	// Safe batches return once their segment is on disk: the store's own config
	// (unsafe_batch) leaves persisting to a background goroutine, which a loaded machine
	// may not have run before the test closes the store and looks for segment files.
	b, err := bleve.NewUsing(ix.bleveDir(), ix.im, scorch.Name, scorch.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	ix.bidx = b
	if err := ix.catchUpBleve(); err != nil {
		t.Fatal(err)
	}
}

// wantSegmentsOpenWith checks that dir holds segments and that plugin reads every one
// (each format refuses the other's files).
func wantSegmentsOpenWith(t *testing.T, dir string, plugin interface {
	Open(string) (segment.Segment, error)
}) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.zap"))
	if len(files) == 0 {
		t.Fatalf("no segment in %s", dir)
	}
	for _, f := range files {
		s, err := plugin.Open(f)
		if err != nil {
			t.Fatalf("segment %s: %v", filepath.Base(f), err)
		}
		s.Close()
	}
}
