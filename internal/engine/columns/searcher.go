package columns

import (
	"reflect"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/scorer"
	index "github.com/blevesearch/bleve_index_api"
)

var rangeSearcherSize = int(reflect.TypeOf(RangeSearcher{}).Size())

// RangeSearcher matches the live documents that have, in one field's columns, an ordinal
// in a per-segment run [From[s], To[s]), with a constant score. Unlike a filter over
// bleve's match-all searcher (whose Advance steps through every document and allocates
// an id for each) it advances by arithmetic and checks a document with an array lookup.
type RangeSearcher struct {
	view     *View
	cols     []*Column
	from, to []uint32
	scorer   *scorer.ConstantScorer
	next     uint64 // global number of the next document to examine
	seg      int    // the segment holding next (documents only move forward)
	scratch  index.IndexInternalID
	count    uint64
}

// NewRangeSearcher returns a searcher over the view; cols, from and to are per segment.
func NewRangeSearcher(v *View, cols []*Column, from, to []uint32, boost float64, o search.SearcherOptions) *RangeSearcher {
	s := &RangeSearcher{view: v, cols: cols, from: from, to: to,
		scorer: scorer.NewConstantScorer(1.0, boost, o), scratch: make(index.IndexInternalID, 8)}
	for i, c := range cols {
		s.count += uint64(c.docs[to[i]] - c.docs[from[i]])
	}
	return s
}

func (s *RangeSearcher) accepts(seg int, local uint64) bool {
	if !s.cols[seg].AnyIn(local, s.from[seg], s.to[seg]) {
		return false
	}
	d := s.view.deleted[seg]
	return d == nil || !d.Contains(uint32(local))
}

// Next implements search.Searcher.
func (s *RangeSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	seg := s.seg
	for n := s.next; n < s.view.total; n++ {
		for seg+1 < len(s.view.offsets) && n >= s.view.offsets[seg+1] {
			seg++
		}
		if s.from[seg] >= s.to[seg] {
			// Nothing in range in this segment: skip it whole.
			if seg+1 == len(s.view.offsets) {
				break
			}
			n = s.view.offsets[seg+1] - 1
			continue
		}
		if s.accepts(seg, n-s.view.offsets[seg]) {
			s.next, s.seg = n+1, seg
			s.scratch.SetValue(n)
			return s.scorer.Score(ctx, s.scratch), nil
		}
	}
	s.next = s.view.total
	return nil, nil
}

// Advance implements search.Searcher.
func (s *RangeSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	if n := id.Value(); n > s.next && n < s.view.total {
		s.next = n
		s.seg, _ = s.view.Locate(id, s.seg)
	} else if n >= s.view.total {
		s.next = s.view.total
	}
	return s.Next(ctx)
}

// Count is the number of documents with a value in range, deleted ones included.
func (s *RangeSearcher) Count() uint64 { return s.count }

// Weight implements search.Searcher.
func (s *RangeSearcher) Weight() float64 { return s.scorer.Weight() }

// SetQueryNorm implements search.Searcher.
func (s *RangeSearcher) SetQueryNorm(n float64) { s.scorer.SetQueryNorm(n) }

// Close implements search.Searcher.
func (s *RangeSearcher) Close() error { return nil }

// Min implements search.Searcher.
func (s *RangeSearcher) Min() int { return 0 }

// Size implements search.Searcher.
func (s *RangeSearcher) Size() int { return rangeSearcherSize }

// DocumentMatchPoolSize implements search.Searcher.
func (s *RangeSearcher) DocumentMatchPoolSize() int { return 1 }
