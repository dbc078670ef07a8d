package loop

import (
	"sync"

	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/zap"
)

// Terms matches the documents holding any of several terms, without scores: a filter's
// terms query, or the terms a fuzzy or prefix query expands to. Lists are each term's
// postings lists, one per segment of the reader.
//
// As Lucene rewrites a multi-term query of many terms into a bit set, the terms'
// postings are or-ed into a bit set of the segment at its first window, and each window
// copies its words: a prefix of hundreds of terms costs a pass over their postings,
// not a cursor per term and window.
type Terms struct {
	Lists [][]segapi.PostingsList
}

type termsEval struct {
	s     *segment
	lists []*zap.PostingsList // the segment's, of the terms it holds
	set   *[]uint64           // a bit per document of the segment; nil until the first window
}

// sets are the segments' bit sets, reused from search to search.
var sets = sync.Pool{New: func() any { return new([]uint64) }}

func (t *Terms) open(s *segment) evaluator {
	if len(t.Lists) == 1 {
		return (&Term{Lists: t.Lists[0]}).open(s) // a filter's term: its postings as they come
	}
	e := &termsEval{s: s}
	for _, l := range t.Lists {
		if zpl, ok := l[s.index].(*zap.PostingsList); ok {
			e.lists = append(e.lists, zpl)
		}
	}
	if len(e.lists) == 0 {
		return nothing{}
	}
	return e
}

func (e *termsEval) eval(base uint32, b *block) {
	if e.set == nil {
		e.fill()
	}
	w0 := int(base / 64)
	copy(b.bits[:], (*e.set)[w0:w0+words])
	e.s.dropDeleted(base, b)
}

// fill ors the terms' postings into the segment's bit set, whole windows of it.
func (e *termsEval) fill() {
	n := (int(e.s.count) + window - 1) / window * words
	e.set = sets.Get().(*[]uint64)
	if cap(*e.set) < n {
		*e.set = make([]uint64, n)
	}
	set := (*e.set)[:n]
	clear(set)
	*e.set = set
	var docs [1024]uint32
	for _, l := range e.lists {
		it := l.Blocks(false)
		for {
			k, err := it.Next(docs[:], nil)
			if err != nil {
				e.s.fail(err)
			}
			if k == 0 || err != nil {
				break
			}
			for _, d := range docs[:k] {
				set[d>>6] |= 1 << (d & 63)
			}
		}
	}
}

func (e *termsEval) release() {
	if e.set != nil {
		sets.Put(e.set)
	}
}
