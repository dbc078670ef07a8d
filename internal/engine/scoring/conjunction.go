package scoring

import (
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Conjunction matches the documents all its clauses match, in document order. Its score
// is Lucene's ConjunctionScorer's: the scores of the first scoring clauses added in a
// double and rounded to a float; the other clauses are filters.
type Conjunction struct {
	group
	scoring int
	currs   []*search.DocumentMatch
	ids     []uint64
	scratch index.IndexInternalID
	started bool
	done    bool
}

// NewConjunction returns the conjunction of searchers, of which the first scoring ones
// score.
func NewConjunction(searchers []search.Searcher, scoring int) *Conjunction {
	return &Conjunction{group: searchers, scoring: scoring,
		currs: make([]*search.DocumentMatch, len(searchers)), ids: make([]uint64, len(searchers)),
		scratch: make(index.IndexInternalID, 8)}
}

func (c *Conjunction) set(i int, next *search.DocumentMatch, err error) error {
	c.currs[i] = next
	if next == nil {
		c.done = true
	} else {
		c.ids[i] = next.IndexInternalID.Value()
	}
	return err
}

func (c *Conjunction) start(ctx *search.SearchContext) error {
	c.started = true
	for i, s := range c.group {
		next, err := s.Next(ctx)
		if err := c.set(i, next, err); err != nil {
			return err
		}
	}
	return nil
}

// Next implements search.Searcher.
func (c *Conjunction) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	if !c.started {
		if err := c.start(ctx); err != nil {
			return nil, err
		}
	}
	if err := c.align(ctx); err != nil || c.done {
		return nil, err
	}
	rv := c.currs[0]
	if c.scoring > 0 {
		var sum float64
		for _, m := range c.currs[:c.scoring] {
			sum += m.Score
		}
		rv.Score = float64(float32(sum))
	} else {
		rv.Score = 0
	}
	for i, s := range c.group {
		if c.currs[i] != rv {
			ctx.DocumentMatchPool.Put(c.currs[i])
		}
		next, err := s.Next(ctx)
		if err := c.set(i, next, err); err != nil {
			return nil, err
		}
	}
	return rv, nil
}

// align advances the clauses until all are on one document, or one is done.
func (c *Conjunction) align(ctx *search.SearchContext) error {
	for !c.done {
		target, behind := c.ids[0], false
		for _, id := range c.ids[1:] {
			if id != target {
				behind = true
				target = max(target, id)
			}
		}
		if !behind {
			return nil
		}
		if err := c.advanceTo(ctx, target); err != nil {
			return err
		}
	}
	return nil
}

// advanceTo moves every clause behind target to target or past it.
func (c *Conjunction) advanceTo(ctx *search.SearchContext, target uint64) error {
	c.scratch.SetValue(target)
	for i, s := range c.group {
		if c.done {
			return nil
		}
		if c.ids[i] >= target {
			continue
		}
		ctx.DocumentMatchPool.Put(c.currs[i])
		next, err := s.Advance(ctx, c.scratch)
		if err := c.set(i, next, err); err != nil {
			return err
		}
	}
	return nil
}

// Advance implements search.Searcher.
func (c *Conjunction) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	if !c.started {
		if err := c.start(ctx); err != nil {
			return nil, err
		}
	}
	if !c.done {
		if err := c.advanceTo(ctx, id.Value()); err != nil {
			return nil, err
		}
	}
	return c.Next(ctx)
}
