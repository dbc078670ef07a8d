package zap

import (
	"bytes"
	"hash/maphash"
	"math"
	"slices"

	index "github.com/blevesearch/bleve_index_api"
)

// inverter holds a new segment's terms and postings as its documents arrive, as Lucene's
// indexing chain does: each field's terms in one open-addressing hash over a shared byte
// pool, each posting a fixed-size record appended in document order, positions in one
// shared pool. Nothing is allocated per term or per document and nothing holds a
// pointer, so the garbage collector never scans it. When the segment is written, each
// field's terms are sorted and each term's postings gathered by a counting sort
// (postingsOf). zapx kept a Go map per field, a roaring bitmap per term and a slice of
// frequencies and one of locations per term, filled in two passes over every document's
// frequency maps.
type inverter struct {
	seed     maphash.Seed
	pool     []byte   // the terms' bytes
	termOff  []uint32 // per term id (pid): where its bytes start in pool
	termLen  []uint32
	count    []uint32   // per pid: its postings
	posCount []uint32   // per pid: its postings' positions
	fields   []termHash // per field id
	posts    []inverted
	pos      []uint32 // positions, each posting's together
	// what group makes of posts and pos: per pid, where its postings start in byTerm
	// and its positions in posByTerm
	starts, posStarts []uint32
	byTerm            []inverted
	posByTerm         []uint32
	overflow          bool // more than 2^32 terms, postings or positions
}

// inverted is one posting: document doc has term pid freq times; its positions, if
// any, are freq values of the positions pool from pos (noPositions when none).
type inverted struct {
	pid, doc, freq, norm, pos uint32
}

const noPositions = math.MaxUint32

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
	v.pool, v.termOff, v.termLen = v.pool[:0], v.termOff[:0], v.termLen[:0]
	v.count, v.posCount, v.posts, v.pos = v.count[:0], v.posCount[:0], v.posts[:0], v.pos[:0]
	v.overflow = false
	v.fields = emptied(v.fields[:cap(v.fields)], numFields)[:numFields]
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
func (v *inverter) intern(fid uint16, term string) uint32 {
	h := &v.fields[fid]
	if 2*(len(h.pids)+1) > len(h.slots) {
		v.grow(h)
	}
	mask := uint64(len(h.slots) - 1)
	for i := maphash.String(v.seed, term) & mask; ; i = (i + 1) & mask {
		slot := h.slots[i]
		if slot == 0 {
			pid := v.newTerm(term)
			h.slots[i] = pid + 1
			h.pids = append(h.pids, pid)
			return pid
		}
		if string(v.term(slot-1)) == term {
			return slot - 1
		}
	}
}

func (v *inverter) newTerm(term string) uint32 {
	pid := uint32(len(v.termOff))
	v.overflow = v.overflow || len(v.pool)+len(term) > math.MaxUint32 || pid == math.MaxUint32
	v.termOff = append(v.termOff, uint32(len(v.pool)))
	v.termLen = append(v.termLen, uint32(len(term)))
	v.count = append(v.count, 0)
	v.posCount = append(v.posCount, 0)
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

// add appends document doc's posting of term pid, with the field's length as its norm.
// It reports false when the locations are not one position per occurrence without
// array positions (see positions.go).
func (v *inverter) add(pid, doc uint32, tf *index.TokenFreq, length int) bool {
	p := inverted{pid: pid, doc: doc, freq: uint32(tf.Frequency()), norm: uint32(length), pos: noPositions}
	ok := true
	if len(tf.Locations) > 0 {
		ok = len(tf.Locations) == tf.Frequency()
		p.pos = uint32(len(v.pos))
		for _, loc := range tf.Locations {
			ok = ok && len(loc.ArrayPositions) == 0
			v.pos = append(v.pos, uint32(loc.Position))
		}
		v.posCount[pid] += uint32(len(tf.Locations))
	}
	v.overflow = v.overflow || len(v.posts) == math.MaxUint32 || len(v.pos) > math.MaxUint32
	v.count[pid]++
	v.posts = append(v.posts, p)
	return ok
}

// group copies the postings into term order, each term's in document order with its
// positions beside them, so that writing a term's postings reads memory in order: a
// scatter of each posting once instead of a gather per term.
func (v *inverter) group() {
	n := len(v.count)
	v.starts = growZeroed(v.starts, n+1)
	v.posStarts = growZeroed(v.posStarts, n+1)
	for pid := range n {
		v.starts[pid+1] = v.starts[pid] + v.count[pid]
		v.posStarts[pid+1] = v.posStarts[pid] + v.posCount[pid]
	}
	v.byTerm = growZeroed(v.byTerm, len(v.posts))
	v.posByTerm = growZeroed(v.posByTerm, len(v.pos))
	next, nextPos := v.count, v.posCount // reused as cursors: counts are not needed again
	for i := range v.posts {
		p := v.posts[i]
		at := v.starts[p.pid+1] - next[p.pid]
		next[p.pid]--
		if p.pos != noPositions {
			to := v.posStarts[p.pid+1] - nextPos[p.pid]
			nextPos[p.pid] -= p.freq
			copy(v.posByTerm[to:to+p.freq], v.pos[p.pos:p.pos+p.freq])
			p.pos = to
		}
		v.byTerm[at] = p
	}
}

// postingsOf returns term pid's postings, in document order, after group.
func (v *inverter) postingsOf(pid uint32) []inverted {
	return v.byTerm[v.starts[pid]:v.starts[pid+1]]
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

// positions returns posting p's positions, after group.
func (v *inverter) positions(p *inverted) []uint32 {
	if p.pos == noPositions {
		return nil
	}
	return v.posByTerm[p.pos : p.pos+p.freq]
}
