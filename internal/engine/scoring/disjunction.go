package scoring

import (
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Combine is how a disjunction scores a document from its matching clauses.
type Combine func(matching []*search.DocumentMatch) float64

// Sum is Lucene's DisjunctionSumScorer: the clauses' scores added in a double, the sum
// rounded to a float.
func Sum(matching []*search.DocumentMatch) float64 {
	var sum float64
	for _, m := range matching {
		sum += m.Score
	}
	return float64(float32(sum))
}

// DisMax is Lucene's DisjunctionMaxScorer: the best clause's score plus tie times the
// others' (in a double, rounded to a float).
func DisMax(tie float32) Combine {
	return func(matching []*search.DocumentMatch) float64 {
		var max float32
		var others float64
		for _, m := range matching {
			s := float32(m.Score)
			if s >= max {
				others += float64(max)
				max = s
			} else {
				others += float64(s)
			}
		}
		return float64(float32(float64(max) + others*float64(tie)))
	}
}

// sub is one clause of a disjunction with the document it is on.
type sub struct {
	s    search.Searcher
	curr *search.DocumentMatch
	id   uint64
}

// Disjunction matches the documents at least min of its clauses match, in document
// order; combine scores them (nil: no scores).
type Disjunction struct {
	group
	subs     []*sub
	heap     []*sub // subs on a document, by document
	matching []*sub
	currs    []*search.DocumentMatch
	min      int
	combine  Combine
	started  bool
}

// NewDisjunction returns the disjunction of searchers (at least one of them, or min).
func NewDisjunction(searchers []search.Searcher, min int, combine Combine) *Disjunction {
	d := &Disjunction{group: searchers, min: max(min, 1), combine: combine}
	for _, s := range searchers {
		d.subs = append(d.subs, &sub{s: s})
	}
	return d
}

func (d *Disjunction) start(ctx *search.SearchContext) error {
	d.started = true
	for _, s := range d.subs {
		next, err := s.s.Next(ctx)
		if err := d.step(s, next, err); err != nil {
			return err
		}
	}
	return nil
}

// step takes a clause's next document and puts it back on the heap unless it is done.
func (d *Disjunction) step(s *sub, next *search.DocumentMatch, err error) error {
	if err != nil {
		return err
	}
	s.curr = next
	if next != nil {
		s.id = next.IndexInternalID.Value()
		d.push(s)
	}
	return nil
}

// Next implements search.Searcher.
func (d *Disjunction) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	if !d.started {
		if err := d.start(ctx); err != nil {
			return nil, err
		}
	}
	for len(d.heap) > 0 {
		d.popMatching()
		var rv *search.DocumentMatch
		if len(d.matching) >= d.min {
			rv = d.matching[0].curr
			if d.combine != nil {
				rv.Score = d.score()
			}
		}
		for _, s := range d.matching {
			if s.curr != rv {
				ctx.DocumentMatchPool.Put(s.curr)
			}
			next, err := s.s.Next(ctx)
			if err := d.step(s, next, err); err != nil {
				return nil, err
			}
		}
		if rv != nil {
			return rv, nil
		}
	}
	return nil, nil
}

func (d *Disjunction) score() float64 {
	d.currs = d.currs[:0]
	for _, s := range d.matching {
		d.currs = append(d.currs, s.curr)
	}
	return d.combine(d.currs)
}

// popMatching takes the clauses on the first document off the heap.
func (d *Disjunction) popMatching() {
	d.matching = d.matching[:0]
	top := d.heap[0].id
	for len(d.heap) > 0 && d.heap[0].id == top {
		d.matching = append(d.matching, d.pop())
	}
}

// Advance implements search.Searcher.
func (d *Disjunction) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	if !d.started {
		if err := d.start(ctx); err != nil {
			return nil, err
		}
	}
	target := id.Value()
	for len(d.heap) > 0 && d.heap[0].id < target {
		s := d.pop()
		ctx.DocumentMatchPool.Put(s.curr)
		next, err := s.s.Advance(ctx, id)
		if err := d.step(s, next, err); err != nil {
			return nil, err
		}
	}
	return d.Next(ctx)
}

func (d *Disjunction) push(s *sub) {
	d.heap = append(d.heap, s)
	i := len(d.heap) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if d.heap[parent].id <= s.id {
			break
		}
		d.heap[i] = d.heap[parent]
		i = parent
	}
	d.heap[i] = s
}

func (d *Disjunction) pop() *sub {
	top := d.heap[0]
	last := d.heap[len(d.heap)-1]
	d.heap = d.heap[:len(d.heap)-1]
	n := len(d.heap)
	if n == 0 {
		return top
	}
	i := 0
	for {
		child := 2*i + 1
		if child >= n {
			break
		}
		if child+1 < n && d.heap[child+1].id < d.heap[child].id {
			child++
		}
		if last.id <= d.heap[child].id {
			break
		}
		d.heap[i] = d.heap[child]
		i = child
	}
	d.heap[i] = last
	return top
}

// Min implements search.Searcher.
func (d *Disjunction) Min() int { return d.min }
