package store

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
)

// Record kinds in the translog and snapshot files.
const (
	recIndex  byte = 1
	recDelete byte = 2
)

// record is one durable operation: the document state after the op.
type record struct {
	Kind    byte
	SeqNo   int64
	Term    int64
	Version int64
	ID      string
	Source  []byte
}

// recordOverhead bounds a record's size besides its id and source: header, kind, seq_no,
// term, version and two length varints.
const recordOverhead = 8 + 1 + 8*3 + binary.MaxVarintLen64*2

// appendRecord encodes r as [len u32][crc u32][payload] so a torn tail write is detected
// on replay and the log is cut there (a write that was never fsynced was never acked).
func appendRecord(buf []byte, r *record) []byte {
	start := len(buf)
	buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
	p := len(buf)
	buf = append(buf, r.Kind)
	buf = binary.BigEndian.AppendUint64(buf, uint64(r.SeqNo))
	buf = binary.BigEndian.AppendUint64(buf, uint64(r.Term))
	buf = binary.BigEndian.AppendUint64(buf, uint64(r.Version))
	buf = binary.AppendUvarint(buf, uint64(len(r.ID)))
	buf = append(buf, r.ID...)
	buf = binary.AppendUvarint(buf, uint64(len(r.Source)))
	buf = append(buf, r.Source...)
	n := len(buf) - p
	binary.BigEndian.PutUint32(buf[start:], uint32(n))
	binary.BigEndian.PutUint32(buf[start+4:], crc32.ChecksumIEEE(buf[p:]))
	return buf
}

var errTorn = errors.New("torn record")

func readRecord(r *bufio.Reader) (*record, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, errTorn
	}
	n := binary.BigEndian.Uint32(hdr[:4])
	if n > 1<<30 {
		return nil, errTorn
	}
	payload := make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return nil, errTorn
	}
	if crc32.ChecksumIEEE(payload) != binary.BigEndian.Uint32(hdr[4:]) {
		return nil, errTorn
	}
	return decodePayload(payload)
}

func decodePayload(p []byte) (*record, error) {
	if len(p) < 25 {
		return nil, errTorn
	}
	rec := &record{Kind: p[0]}
	rec.SeqNo = int64(binary.BigEndian.Uint64(p[1:]))
	rec.Term = int64(binary.BigEndian.Uint64(p[9:]))
	rec.Version = int64(binary.BigEndian.Uint64(p[17:]))
	rest := p[25:]
	idLen, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < idLen {
		return nil, errTorn
	}
	rec.ID = string(rest[k : k+int(idLen)])
	rest = rest[k+int(idLen):]
	srcLen, k := binary.Uvarint(rest)
	if k <= 0 || uint64(len(rest)-k) < srcLen {
		return nil, errTorn
	}
	rec.Source = rest[k : k+int(srcLen)]
	return rec, nil
}

// readLog reads records from a file until EOF or a torn record; it returns the byte offset
// of the last good record's end so the caller can truncate a torn tail.
func readLog(path string, fn func(*record) error) (good int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return 0, nil
		}
		return 0, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	for {
		rec, err := readRecord(br)
		if errors.Is(err, io.EOF) || errors.Is(err, errTorn) {
			return good, nil
		}
		if err != nil {
			return good, err
		}
		if err := fn(rec); err != nil {
			return good, err
		}
		good += int64(8 + len(rec.Source) + len(rec.ID) + 25 + uvarintLen(len(rec.ID)) + uvarintLen(len(rec.Source)))
	}
}

func uvarintLen(n int) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], uint64(n))
}

// syncDir makes a rename or file creation durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// writeFileAtomic writes dir/name through a temporary file, fsync and rename, so a crash
// leaves either the old file or the new one, never a torn one.
func writeFileAtomic(dir, name string, write func(io.Writer) error) error {
	tmp := filepath.Join(dir, name+".tmp")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}
