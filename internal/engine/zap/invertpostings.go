package zap

import "math"

// inverted is one posting: document doc has term pid freq times, with nlocs positions
// (none, or freq) that start at pos in the inverter's posByTerm after group; norm is
// the length of the document's field.
type inverted struct {
	pid, doc, freq, norm, nlocs, pos uint32
}

// occurrence is one position of posting post, in the order they arrive.
type occurrence struct{ post, pos uint32 }

// posting returns the index in posts of document doc's posting of term in field fid,
// adding it if the document has none yet: a document's fields of one name (an array's
// values) share their postings, as zapx merges their frequencies.
func (v *inverter) posting(fid uint16, term []byte, doc uint32) uint32 {
	pid := v.intern(fid, term)
	if last := v.lastPost[pid]; last > uint32(v.docStart) {
		return last - 1
	}
	v.overflow = v.overflow || len(v.posts) >= math.MaxUint32-1
	v.posts = append(v.posts, inverted{pid: pid, doc: doc})
	v.lastPost[pid] = uint32(len(v.posts))
	v.count[pid]++
	return uint32(len(v.posts) - 1)
}

// occur adds position pos to posting i.
func (v *inverter) occur(i uint32, pos int) {
	v.overflow = v.overflow || len(v.occ) >= math.MaxUint32 || pos < 0 || pos > math.MaxUint32
	v.occ = append(v.occ, occurrence{post: i, pos: uint32(pos)})
	v.posts[i].nlocs++
	v.posCount[v.posts[i].pid]++
}

// endDocument gives the document's postings their norms: the length of each field, its
// values' lengths summed.
func (v *inverter) endDocument(lengths []int) {
	for i := v.docStart; i < len(v.posts); i++ {
		p := &v.posts[i]
		p.norm = uint32(lengths[v.termField[p.pid]])
	}
	v.docStart = len(v.posts)
}

// group copies the postings into term order, each term's in document order, and the
// positions into posting order, so that writing a term's postings reads memory in
// order: a scatter of each posting and position once instead of a gather per term.
func (v *inverter) group() {
	n := len(v.count)
	v.starts = growZeroed(v.starts, n+1)
	v.posStarts = growZeroed(v.posStarts, n+1)
	for pid := range n {
		v.starts[pid+1] = v.starts[pid] + v.count[pid]
		v.posStarts[pid+1] = v.posStarts[pid] + v.posCount[pid]
	}
	next, nextPos := v.count, v.posCount // reused as cursors: counts are not needed again
	for i := range v.posts {             // where each posting's positions go
		p := &v.posts[i]
		p.pos = v.posStarts[p.pid+1] - nextPos[p.pid]
		nextPos[p.pid] -= p.nlocs
	}
	v.posByTerm = growZeroed(v.posByTerm, len(v.occ))
	for _, o := range v.occ {
		p := &v.posts[o.post]
		v.posByTerm[p.pos] = o.pos
		p.pos++
	}
	v.byTerm = growZeroed(v.byTerm, len(v.posts))
	for _, p := range v.posts {
		p.pos -= p.nlocs
		v.byTerm[v.starts[p.pid+1]-next[p.pid]] = p
		next[p.pid]--
	}
}

// postingsOf returns term pid's postings, in document order, after group.
func (v *inverter) postingsOf(pid uint32) []inverted {
	return v.byTerm[v.starts[pid]:v.starts[pid+1]]
}

// positions returns posting p's positions, after group.
func (v *inverter) positions(p *inverted) []uint32 {
	return v.posByTerm[p.pos : p.pos+p.nlocs]
}
