package zap

import (
	"bytes"
	"hash/maphash"
	"math"
	"slices"
)

// inverter holds a new segment's terms and postings as its documents arrive, as Lucene's
// indexing chain does: each field's terms in one open-addressing hash over a shared byte
// pool, each posting a fixed-size record appended as its document arrives, each position
// a record of one shared pool. Nothing is allocated per term or per document and nothing
// holds a pointer, so the garbage collector never scans it. When the segment is written,
// each field's terms are sorted and the postings and positions copied into term order
// once (group). zapx kept a Go map per field, a roaring bitmap per term and a slice of
// frequencies and one of locations per term, filled in two passes over every document's
// frequency maps.
type inverter struct {
	seed      maphash.Seed
	pool      []byte   // the terms' bytes
	termOff   []uint32 // per term id (pid): where its bytes start in pool
	termLen   []uint32
	termField []uint16
	count     []uint32   // per pid: its postings
	posCount  []uint32   // per pid: its postings' positions
	lastPost  []uint32   // per pid: its last posting, plus one (0: none)
	fields    []termHash // per field id
	posts     []inverted
	occ       []occurrence
	docStart  int // the postings of the document being inverted start here in posts
	// what group makes of posts and occ: per pid, where its postings start in byTerm and
	// its positions in posByTerm
	starts, posStarts []uint32
	byTerm            []inverted
	posByTerm         []uint32
	overflow          bool // more than 2^32 terms, postings or positions
}

// termHash is one field's terms: slots hold term ids plus one (0 is an empty slot),
// pids the ids in the order the terms arrived.
type termHash struct {
	slots []uint32
	pids  []uint32
}

func (v *inverter) reset(numFields int) {
	if v.seed == (maphash.Seed{}) {
		v.seed = maphash.MakeSeed()
	}
	v.pool, v.termOff, v.termLen, v.termField = v.pool[:0], v.termOff[:0], v.termLen[:0], v.termField[:0]
	v.count, v.posCount, v.lastPost = v.count[:0], v.posCount[:0], v.lastPost[:0]
	v.posts, v.occ, v.docStart = v.posts[:0], v.occ[:0], 0
	v.overflow = false
	v.fields = emptied(v.fields[:cap(v.fields)], numFields)[:numFields]
}

// reserve makes room for the postings and positions of a segment, so that they are
// allocated once: grown by appending, from empty whenever the inverter had been dropped
// with its pool since the last build, their copies and the fresh memory each copy
// touched took 40% of building a segment of 20,000 products (BenchmarkSegmentBuild), and
// more the larger the segment.
func (v *inverter) reserve(posts, occ int) {
	v.posts = slices.Grow(v.posts, posts)
	v.occ = slices.Grow(v.occ, occ)
}

// emptied is s with at least n empty hashes, keeping their memory for reuse.
func emptied(s []termHash, n int) []termHash {
	for len(s) < n {
		s = append(s, termHash{})
	}
	for i := range s[:n] {
		clear(s[i].slots)
		s[i].pids = s[i].pids[:0]
	}
	return s
}

// term returns the bytes of term pid.
func (v *inverter) term(pid uint32) []byte {
	off := v.termOff[pid]
	return v.pool[off : off+v.termLen[pid]]
}

// intern returns the id of term in field fid, adding it if new.
func (v *inverter) intern(fid uint16, term []byte) uint32 {
	h := &v.fields[fid]
	if 2*(len(h.pids)+1) > len(h.slots) {
		v.grow(h)
	}
	mask := uint64(len(h.slots) - 1)
	for i := maphash.Bytes(v.seed, term) & mask; ; i = (i + 1) & mask {
		slot := h.slots[i]
		if slot == 0 {
			pid := v.newTerm(fid, term)
			h.slots[i] = pid + 1
			h.pids = append(h.pids, pid)
			return pid
		}
		if bytes.Equal(v.term(slot-1), term) {
			return slot - 1
		}
	}
}

func (v *inverter) newTerm(fid uint16, term []byte) uint32 {
	pid := uint32(len(v.termOff))
	v.overflow = v.overflow || len(v.pool)+len(term) > math.MaxUint32 || pid == math.MaxUint32
	v.termOff = append(v.termOff, uint32(len(v.pool)))
	v.termLen = append(v.termLen, uint32(len(term)))
	v.termField = append(v.termField, fid)
	v.count = append(v.count, 0)
	v.posCount = append(v.posCount, 0)
	v.lastPost = append(v.lastPost, 0)
	v.pool = append(v.pool, term...)
	return pid
}

// grow doubles h's slots (at least 16) and places its terms again.
func (v *inverter) grow(h *termHash) {
	n := max(16, 2*len(h.slots))
	if cap(h.slots) >= n {
		h.slots = h.slots[:n]
		clear(h.slots)
	} else {
		h.slots = make([]uint32, n)
	}
	mask := uint64(n - 1)
	for _, pid := range h.pids {
		i := maphash.Bytes(v.seed, v.term(pid)) & mask
		for h.slots[i] != 0 {
			i = (i + 1) & mask
		}
		h.slots[i] = pid + 1
	}
}

// sortedTerms returns field fid's term ids in term order.
func (v *inverter) sortedTerms(fid int) []uint32 {
	if fid >= len(v.fields) {
		return nil
	}
	pids := v.fields[fid].pids
	slices.SortFunc(pids, func(a, b uint32) int { return bytes.Compare(v.term(a), v.term(b)) })
	return pids
}
