package sourcefile

import (
	"bytes"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"
)

// randomSources returns n JSON-like sources of 50 to 3,000 bytes, some larger than a block.
func randomSources(n int, seed int64) [][]byte {
	rng := rand.New(rand.NewSource(seed))
	out := make([][]byte, n)
	for i := range out {
		size := 50 + rng.Intn(3000)
		if i%97 == 0 {
			size = BlockSize + rng.Intn(BlockSize)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"id":%d,"text":"`, i)
		for b.Len() < size {
			fmt.Fprintf(&b, "word%d ", rng.Intn(500))
		}
		b.WriteString(`"}`)
		out[i] = b.Bytes()
	}
	return out
}

func readAll(t *testing.T, f *File, refs []Ref, want [][]byte) {
	t.Helper()
	for i, r := range refs {
		got, err := f.Read(r)
		if err != nil {
			t.Fatalf("source %d: %v", i, err)
		}
		if !bytes.Equal(got, want[i]) {
			t.Fatalf("source %d: %d bytes differ from the %d written", i, len(got), len(want[i]))
		}
	}
}

// TestReadsBackEverySource: sources read back byte for byte from the open block, from
// written blocks through a cache too small to hold them, and after reopening the file at
// its sealed length; what was appended after that length is cut on open.
func TestReadsBackEverySource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.dat")
	cache := NewCache(4 * BlockSize)
	f, err := Open(path, 0, 0, cache)
	if err != nil {
		t.Fatal(err)
	}
	srcs := randomSources(2000, 1)
	refs := make([]Ref, len(srcs))
	for i, s := range srcs {
		if refs[i], err = f.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	readAll(t, f, refs, srcs)
	if cache.Bytes() > 4*BlockSize {
		t.Errorf("cache holds %d bytes, over its %d", cache.Bytes(), 4*BlockSize)
	}
	size, err := f.Seal()
	if err != nil {
		t.Fatal(err)
	}
	raw := f.Raw()
	if _, err := f.Append([]byte(`{"after":"the seal"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seal(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	g, err := Open(path, size, raw, NewCache(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	readAll(t, g, refs, srcs)
	if g.Raw() != raw {
		t.Errorf("raw %d after reopening, want %d", g.Raw(), raw)
	}
	if next, _ := g.Append([]byte("{}")); int(next.Block) != len(g.starts) {
		t.Errorf("first append after reopening goes to block %d, want the new block %d", next.Block, len(g.starts))
	}
}

// TestCompresses: the product-like sources take well under half their size on disk.
func TestCompresses(t *testing.T) {
	f, err := Open(filepath.Join(t.TempDir(), "s.dat"), 0, 0, NewCache(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, s := range randomSources(1000, 2) {
		if _, err := f.Append(s); err != nil {
			t.Fatal(err)
		}
	}
	size, err := f.Seal()
	if err != nil {
		t.Fatal(err)
	}
	if size*2 > f.Raw() {
		t.Errorf("%d bytes on disk for %d raw", size, f.Raw())
	}
}

// TestOpenRefusesAShortFile: a file shorter than the length its owner recorded lost data.
func TestOpenRefusesAShortFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.dat")
	f, err := Open(path, 0, 0, NewCache(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if _, err := Open(path, 100, 0, NewCache(1<<20)); err == nil {
		t.Fatal("opened a 0-byte file as 100 bytes long")
	}
}
