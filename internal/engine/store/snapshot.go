package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/engine/sourcefile"
)

// docs.snap holds every document's state at a checkpoint. Version 2 holds, after its
// header, where each source lies in the source file named by the header, cut to the
// length it records; version 1 (older data directories) held the sources themselves.
const (
	snapMagicV1 = "AISLSNP1"
	snapMagicV2 = "AISLSNP2"
	snapName    = "docs.snap"
)

// snapHeader is what a version 2 snapshot records besides the documents.
type snapHeader struct {
	SeqNo   int64
	SrcGen  int64 // the source file generation
	SrcSize int64 // its length when the snapshot was taken, synced
	SrcRaw  int64 // the raw bytes of its blocks
	Count   int64 // documents (and tombstones) that follow
}

func (ix *Index) srcPath(gen int) string {
	return filepath.Join(ix.dir, fmt.Sprintf("sources-%06d.dat", gen))
}

// loadSnapshot opens the source file and loads the document states of the last snapshot.
func (ix *Index) loadSnapshot() error {
	f, err := os.Open(filepath.Join(ix.dir, snapName))
	if os.IsNotExist(err) {
		return ix.openSources(snapHeader{SrcGen: 1, SeqNo: -1})
	}
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	magic := make([]byte, len(snapMagicV2))
	if _, err := io.ReadFull(br, magic); err != nil {
		return fmt.Errorf("index %s: corrupt snapshot header", ix.Name)
	}
	switch string(magic) {
	case snapMagicV1:
		return ix.loadSnapshotV1(br)
	case snapMagicV2:
		return ix.loadSnapshotV2(br)
	}
	return fmt.Errorf("index %s: corrupt snapshot header", ix.Name)
}

// openSources opens the source file a snapshot names and deletes any other generation
// (left by a compaction that a crash interrupted, or by one whose snapshot replaced it).
func (ix *Index) openSources(h snapHeader) error {
	src, err := sourcefile.Open(ix.srcPath(int(h.SrcGen)), h.SrcSize, h.SrcRaw, ix.store.cache)
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.Name, err)
	}
	ix.src, ix.srcGen, ix.seqNo = src, int(h.SrcGen), h.SeqNo
	ix.removeSourcesExcept(ix.srcGen)
	return nil
}

func (ix *Index) removeSourcesExcept(gen int) {
	entries, _ := os.ReadDir(ix.dir)
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, "sources-") || !strings.HasSuffix(name, ".dat") {
			continue
		}
		if g, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "sources-"), ".dat")); err == nil && g != gen {
			_ = os.Remove(filepath.Join(ix.dir, name))
		}
	}
}

func (ix *Index) loadSnapshotV1(br *bufio.Reader) error {
	var seq [8]byte
	if _, err := io.ReadFull(br, seq[:]); err != nil {
		return fmt.Errorf("index %s: corrupt snapshot header", ix.Name)
	}
	if err := ix.openSources(snapHeader{SrcGen: 1, SeqNo: int64(binary.BigEndian.Uint64(seq[:]))}); err != nil {
		return err
	}
	for {
		rec, err := readRecord(br)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("index %s: corrupt snapshot: %w", ix.Name, err)
		}
		if err := ix.applyRecord(rec); err != nil {
			return err
		}
	}
}

func (ix *Index) loadSnapshotV2(br *bufio.Reader) error {
	r := &crcReader{r: br}
	var h snapHeader
	if err := binary.Read(r, binary.BigEndian, &h); err != nil {
		return fmt.Errorf("index %s: corrupt snapshot header: %w", ix.Name, err)
	}
	if err := ix.openSources(h); err != nil {
		return err
	}
	for i := int64(0); i < h.Count; i++ {
		id, d, err := readSnapEntry(r)
		if err != nil {
			return fmt.Errorf("index %s: corrupt snapshot: %w", ix.Name, err)
		}
		ix.putLocked(id, d)
	}
	want := r.sum
	var sum [4]byte
	if _, err := io.ReadFull(br, sum[:]); err != nil || binary.BigEndian.Uint32(sum[:]) != want {
		return fmt.Errorf("index %s: corrupt snapshot: checksum mismatch", ix.Name)
	}
	return nil
}

// crcReader checksums the bytes it delivers.
type crcReader struct {
	r   *bufio.Reader
	sum uint32
}

func (c *crcReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.sum = crc32.Update(c.sum, crc32.IEEETable, p[:n])
	return n, err
}

func (c *crcReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.sum = crc32.Update(c.sum, crc32.IEEETable, []byte{b})
	}
	return b, err
}

// appendSnapEntry encodes one document state: id, seq_no, version, deleted, source ref.
func appendSnapEntry(buf []byte, id string, d docState) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(id)))
	buf = append(buf, id...)
	buf = binary.AppendUvarint(buf, uint64(d.SeqNo))
	buf = binary.AppendUvarint(buf, uint64(d.Version))
	if d.Deleted {
		return append(buf, 1)
	}
	buf = append(buf, 0)
	buf = binary.AppendUvarint(buf, uint64(d.src.Block))
	buf = binary.AppendUvarint(buf, uint64(d.src.Off))
	return binary.AppendUvarint(buf, uint64(d.src.Len))
}

func readSnapEntry(r *crcReader) (string, docState, error) {
	var d docState
	n, err := binary.ReadUvarint(r)
	if err != nil || n > 1<<20 {
		return "", d, errTorn
	}
	id := make([]byte, n)
	if _, err := io.ReadFull(r, id); err != nil {
		return "", d, errTorn
	}
	nums, err := readUvarints(r, 2)
	if err != nil {
		return "", d, err
	}
	flag, err := r.ReadByte()
	if err != nil {
		return "", d, errTorn
	}
	d.SeqNo, d.Version, d.Deleted = int64(nums[0]), int64(nums[1]), flag == 1
	if !d.Deleted {
		ref, err := readUvarints(r, 3)
		if err != nil {
			return "", d, err
		}
		d.src = sourcefile.Ref{Block: uint32(ref[0]), Off: uint32(ref[1]), Len: uint32(ref[2])}
	}
	return string(id), d, nil
}

func readUvarints(r io.ByteReader, n int) ([]uint64, error) {
	out := make([]uint64, n)
	for i := range out {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, errTorn
		}
		out[i] = v
	}
	return out, nil
}
