package loop

import (
	"slices"
	"sync"

	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/zap"
)

// PhraseTerms are the terms of a phrase's positions. The phrases of a plan on the same
// terms of a field (a catalog search's proximity clauses: the same words at slops 0, 2
// and 8) share one, and so read each window's candidates and their positions once.
type PhraseTerms struct {
	// Lists are the postings lists of each position's terms, one per segment of the
	// reader: Lists[position][term][segment].
	Lists [][][]segapi.PostingsList
	// readers are the open segments' readers (a plan runs its segments one after the
	// other, on one goroutine).
	readers map[*segment]*phraseReader
}

// phraseReader reads a segment's candidates of a phrase's terms a window at a time, and
// the positions of each candidate once for all the phrases that share it.
type phraseReader struct {
	s       *segment
	users   int
	cand    evaluator          // the documents holding a term of every position
	terms   [][]*termPositions // each position's terms; nil where the segment has none
	cands   *block
	base    uint32
	started bool
	*positionCache
}

// positionCache holds the positions of a window's candidates read so far: candidate j's
// of position i are flat[ends[at[j]+i]:ends[at[j]+i+1]].
type positionCache struct {
	read [words]uint64 // the candidates read
	at   [window]int32
	ends []int32
	flat []int
}

var positionCaches = sync.Pool{New: func() any { return new(positionCache) }}

// reader is the segment's reader of the terms, opened by the first phrase that asks;
// nil when the segment lacks every term of a position, so that no document matches.
func (pt *PhraseTerms) reader(s *segment) *phraseReader {
	if r := pt.readers[s]; r != nil {
		r.users++
		return r
	}
	r := &phraseReader{s: s, users: 1, terms: make([][]*termPositions, len(pt.Lists))}
	cand := make([]Node, len(pt.Lists))
	for i, terms := range pt.Lists {
		var held []Node
		for _, lists := range terms {
			tp := openPositions(lists[s.index])
			r.terms[i] = append(r.terms[i], tp)
			if tp != nil {
				held = append(held, &Term{Lists: lists})
			}
		}
		if len(held) == 0 {
			return nil
		}
		cand[i] = anyOf(held)
	}
	r.cand, r.cands = (&Conjunction{Subs: cand}).open(s), getBlock()
	r.positionCache = positionCaches.Get().(*positionCache)
	if pt.readers == nil {
		pt.readers = map[*segment]*phraseReader{}
	}
	pt.readers[s] = r
	return r
}

// done releases a phrase's use of r, and r with the last.
func (pt *PhraseTerms) done(r *phraseReader) {
	if r.users--; r.users > 0 {
		return
	}
	delete(pt.readers, r.s)
	r.cand.release()
	blocks.Put(r.cands)
	positionCaches.Put(r.positionCache)
}

// anyOf matches the documents of any of subs.
func anyOf(subs []Node) Node {
	if len(subs) == 1 {
		return subs[0]
	}
	return &Disjunction{Subs: subs, Min: 1}
}

// window is the candidates among [base, base+window), read by the first phrase that
// asks: every phrase of a plan evaluates the windows in the same increasing order.
func (r *phraseReader) window(base uint32) *block {
	if !r.started || base != r.base {
		r.cand.eval(base, r.cands)
		r.base, r.started = base, true
		r.read = [words]uint64{}
		r.ends, r.flat = r.ends[:0], r.flat[:0]
	}
	return r.cands
}

// positions are candidate j's positions of position i's terms, ascending (a position
// two terms hold twice), as scoring's positionPostings gives them. The first phrase to
// ask reads all of j's: each phrase walks every candidate, in order.
func (r *phraseReader) positions(j uint32, i int) []int {
	if r.read[j>>6]&(1<<(j&63)) == 0 {
		r.readCandidate(j)
	}
	at := r.at[j] + int32(i)
	return r.flat[r.ends[at]:r.ends[at+1]:r.ends[at+1]]
}

func (r *phraseReader) readCandidate(j uint32) {
	r.read[j>>6] |= 1 << (j & 63)
	r.at[j] = int32(len(r.ends))
	r.ends = append(r.ends, int32(len(r.flat)))
	d := r.base + j
	for _, terms := range r.terms {
		start := len(r.flat)
		for _, tp := range terms {
			if tp != nil {
				r.flat = tp.at(r.s, d, r.flat)
			}
		}
		if len(terms) > 1 {
			slices.Sort(r.flat[start:])
		}
		r.ends = append(r.ends, int32(len(r.flat)))
	}
}

// termPositions reads one term's positions in the documents a phrase asks for, in
// increasing order.
type termPositions struct {
	it      segapi.PostingsIterator
	p       segapi.Posting // at or after the last document asked for; nil once done
	started bool
}

// openPositions reads the list's positions; nil when the segment lacks the term (an
// empty list of another type).
func openPositions(l segapi.PostingsList) *termPositions {
	zpl, ok := l.(*zap.PostingsList)
	if !ok {
		return nil
	}
	return &termPositions{it: zpl.Iterator(true, false, true, nil)}
}

// at appends the term's positions in document d, none when d lacks the term.
func (t *termPositions) at(s *segment, d uint32, buf []int) []int {
	if !t.started || (t.p != nil && t.p.Number() < uint64(d)) {
		p, err := t.it.Advance(uint64(d))
		if err != nil {
			s.fail(err)
		}
		t.p, t.started = p, true
	}
	if t.p == nil || t.p.Number() != uint64(d) {
		return buf
	}
	for _, l := range t.p.Locations() {
		buf = append(buf, int(l.Pos()))
	}
	return buf
}
