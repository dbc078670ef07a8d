package scoring

import (
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// Follower is a searcher stepped to the documents of another: it only ever advances.
type Follower struct {
	s    search.Searcher
	curr *search.DocumentMatch
	id   uint64
	done bool
}

// NewFollower returns a follower of s.
func NewFollower(s search.Searcher) *Follower { return &Follower{s: s} }

// On advances f to the document id unless it is there or past it, and reports whether
// it is on id.
func (f *Follower) On(ctx *search.SearchContext, id index.IndexInternalID) (bool, error) {
	want := id.Value()
	if !f.done && (f.curr == nil || f.id < want) {
		ctx.DocumentMatchPool.Put(f.curr)
		next, err := f.s.Advance(ctx, id)
		if err != nil {
			return false, err
		}
		f.curr = next
		if next == nil {
			f.done = true
		} else {
			f.id = next.IndexInternalID.Value()
		}
	}
	return !f.done && f.id == want, nil
}

// Close closes the searcher followed.
func (f *Follower) Close() error { return f.s.Close() }

// DocumentMatchPoolSize is what the follower holds: its current match and its searcher's.
func (f *Follower) DocumentMatchPoolSize() int { return 1 + f.s.DocumentMatchPoolSize() }

// Exclusion is Lucene's ReqExclScorer: the documents of the required searcher that the
// excluded one does not match, with the required searcher's scores.
type Exclusion struct {
	group
	excl *Follower
}

// NewExclusion returns req without the documents of excl (which need not score).
func NewExclusion(req, excl search.Searcher) *Exclusion {
	return &Exclusion{group: group{req, excl}, excl: NewFollower(excl)}
}

// Next implements search.Searcher.
func (e *Exclusion) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	return e.skipExcluded(ctx, e.group[0].Next)
}

// Advance implements search.Searcher.
func (e *Exclusion) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	first := true
	return e.skipExcluded(ctx, func(ctx *search.SearchContext) (*search.DocumentMatch, error) {
		if first {
			first = false
			return e.group[0].Advance(ctx, id)
		}
		return e.group[0].Next(ctx)
	})
}

func (e *Exclusion) skipExcluded(ctx *search.SearchContext, next func(*search.SearchContext) (*search.DocumentMatch, error)) (*search.DocumentMatch, error) {
	for {
		dm, err := next(ctx)
		if err != nil || dm == nil {
			return nil, err
		}
		excluded, err := e.excl.On(ctx, dm.IndexInternalID)
		if err != nil {
			return nil, err
		}
		if !excluded {
			return dm, nil
		}
		ctx.DocumentMatchPool.Put(dm)
	}
}

// Optional is Lucene's ReqOptSumScorer: the documents of the required searcher, scored
// by its score plus, in float arithmetic, the optional searcher's where it matches too.
type Optional struct {
	group
	opt *Follower
}

// NewOptional returns req scored with opt.
func NewOptional(req, opt search.Searcher) *Optional {
	return &Optional{group: group{req, opt}, opt: NewFollower(opt)}
}

// Next implements search.Searcher.
func (o *Optional) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := o.group[0].Next(ctx)
	return o.add(ctx, dm, err)
}

// Advance implements search.Searcher.
func (o *Optional) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := o.group[0].Advance(ctx, id)
	return o.add(ctx, dm, err)
}

func (o *Optional) add(ctx *search.SearchContext, dm *search.DocumentMatch, err error) (*search.DocumentMatch, error) {
	if err != nil || dm == nil {
		return nil, err
	}
	on, err := o.opt.On(ctx, dm.IndexInternalID)
	if err != nil {
		return nil, err
	}
	if on {
		dm.Score = float64(float32(dm.Score) + float32(o.opt.curr.Score))
	}
	return dm, nil
}

// Constant gives every match of a searcher (built without scores) the same score: a
// filter's 0, or the boost of constant_score, match_all, range, terms and the other
// queries Elasticsearch scores with a constant.
type Constant struct {
	search.Searcher
	score float64
}

// NewConstant returns s with every match scored score.
func NewConstant(s search.Searcher, score float32) *Constant {
	return &Constant{Searcher: s, score: float64(score)}
}

// Next implements search.Searcher.
func (c *Constant) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := c.Searcher.Next(ctx)
	if dm != nil {
		dm.Score = c.score
	}
	return dm, err
}

// Advance implements search.Searcher.
func (c *Constant) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := c.Searcher.Advance(ctx, id)
	if dm != nil {
		dm.Score = c.score
	}
	return dm, err
}
