package loop

import (
	"cmp"
	"container/heap"
	"sort"

	"github.com/aislehq/aisle/internal/engine/docsort"
)

// Keys reads documents' sort keys; docsort.Sorter reads them from a reader's columns.
type Keys interface {
	// Len is the number of values of a key.
	Len() int
	// Specs are the sort clauses the keys are ordered by.
	Specs() []docsort.Spec
	// Fill sets key to the key of a document: local in segment seg, doc in the reader.
	Fill(key []docsort.Val, seg int, local, doc uint64, score float64)
}

// KeyedHit is a hit kept by KeyedTopK, with its sort key.
type KeyedHit struct {
	Hit
	Key []docsort.Val
}

// KeyedTopK keeps the k best matches by a sort (docsort's clauses), an earlier document
// first among equal keys, as bleve's collector ranks them. A sort led by _score ranks
// most matches by their score alone: a document's key is read only when its score ties
// with the one it is compared with, since reading keys costs a column lookup per clause
// that bleve's collector pays for every match.
type KeyedTopK struct {
	k     int
	keys  Keys
	specs []docsort.Spec
	n     int
	lead  int // 1 or -1: the sort starts with _score ascending or descending; 0: not
	h     keyedHeap
	store []docsort.Val // the key of the hit in slot s is store[s*n : (s+1)*n]
	cand  []docsort.Val // the key of the match being offered
	reads int
}

// keyed is a hit of the heap; slot -1 is the match being offered.
type keyed struct {
	Hit
	seg   int
	local uint32
	slot  int32
	read  bool // its key is read
}

// NewKeyedTopK keeps k hits ranked by keys.
func NewKeyedTopK(k int, keys Keys) *KeyedTopK {
	t := &KeyedTopK{k: k, keys: keys, specs: keys.Specs(), n: keys.Len()}
	t.lead = scoreLead(t.specs)
	t.cand = make([]docsort.Val, t.n)
	t.h = keyedHeap{t: t, hits: make([]keyed, 0, min(k, 1024))}
	return t
}

// scoreLead says how a sort's first clause ranks scores: -1 when it is _score
// descending, 1 ascending, 0 when it is no _score clause.
func scoreLead(specs []docsort.Spec) int {
	switch {
	case len(specs) == 0 || specs[0].Field != "_score":
		return 0
	case specs[0].Desc:
		return -1
	}
	return 1
}

// Add offers a match; documents come in increasing order, so one whose key ties with
// the worst kept is worse than it.
func (t *KeyedTopK) Add(seg int, local uint32, doc uint64, score float64) {
	if t.k == 0 {
		return
	}
	c := keyed{Hit: Hit{score, doc}, seg: seg, local: local, slot: -1}
	if len(t.h.hits) < t.k {
		c.slot = int32(len(t.h.hits))
		t.store = append(t.store, make([]docsort.Val, t.n)...)
		heap.Push(&t.h, c)
		return
	}
	worst := &t.h.hits[0]
	if t.compare(&c, worst) >= 0 {
		return
	}
	c.slot = worst.slot
	if c.read {
		copy(t.key(c.slot), t.cand)
	}
	t.h.hits[0] = c
	heap.Fix(&t.h, 0)
}

// compare is negative when a ranks before b.
func (t *KeyedTopK) compare(a, b *keyed) int {
	if t.lead != 0 {
		if c := cmp.Compare(a.Score, b.Score) * t.lead; c != 0 {
			return c
		}
	}
	if c := docsort.Compare(t.specs, t.read(a), t.read(b)); c != 0 {
		return c
	}
	return cmp.Compare(a.Doc, b.Doc)
}

// read returns h's key, reading it the first time.
func (t *KeyedTopK) read(h *keyed) []docsort.Val {
	key := t.key(h.slot)
	if !h.read {
		t.keys.Fill(key, h.seg, uint64(h.local), h.Doc, h.Score)
		h.read = true
		t.reads++
	}
	return key
}

func (t *KeyedTopK) key(slot int32) []docsort.Val {
	if slot < 0 {
		return t.cand
	}
	return t.store[int(slot)*t.n : (int(slot)+1)*t.n]
}

// Reads counts the keys read so far.
func (t *KeyedTopK) Reads() int { return t.reads }

// Best returns the hits kept, best first, with their keys (views valid until the next
// Add).
func (t *KeyedTopK) Best() []KeyedHit {
	hits := t.h.hits
	sort.Slice(hits, func(i, j int) bool { return t.compare(&hits[i], &hits[j]) < 0 })
	out := make([]KeyedHit, len(hits))
	for i := range hits {
		out[i] = KeyedHit{Hit: hits[i].Hit, Key: t.read(&hits[i])}
	}
	heap.Init(&t.h) // sorting broke the heap's order
	return out
}

// keyedHeap is the kept hits, the worst on top.
type keyedHeap struct {
	t    *KeyedTopK
	hits []keyed
}

func (h *keyedHeap) Len() int           { return len(h.hits) }
func (h *keyedHeap) Less(i, j int) bool { return h.t.compare(&h.hits[i], &h.hits[j]) > 0 }
func (h *keyedHeap) Swap(i, j int)      { h.hits[i], h.hits[j] = h.hits[j], h.hits[i] }
func (h *keyedHeap) Push(x any)         { h.hits = append(h.hits, x.(keyed)) }
func (h *keyedHeap) Pop() any {
	last := h.hits[len(h.hits)-1]
	h.hits = h.hits[:len(h.hits)-1]
	return last
}
