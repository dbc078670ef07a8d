package aggs

import (
	"errors"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// filterAgg collects the documents that also match its filter. The filter's searcher
// is advanced in step with the collected documents, which arrive in order, so checking a
// document costs a skip in the filter's postings rather than a search per bucket.
type filterAgg struct {
	// check answers from columns when the filter is a predicate (query.PredicateOf);
	// otherwise the filter's searcher is stepped.
	check   dsl.Check
	s       *scoring.Follower
	sctx    *search.SearchContext
	scratch index.IndexInternalID
	counts  []int64 // per owner
	subs    []aggregator
}

func (sh *shard) newFilter(a *Agg, subs []aggregator) (aggregator, error) {
	if a.Pred != nil {
		check, err := a.Pred.Bind(sh.view, sh.m)
		if err != nil {
			return nil, err
		}
		return &filterAgg{check: check, subs: subs}, nil
	}
	s, err := a.Filter.Searcher(sh.ctx, sh.r, sh.m, search.SearcherOptions{Score: "none"})
	if err != nil {
		return nil, err
	}
	pool := search.NewDocumentMatchPool(s.DocumentMatchPoolSize(), 0)
	return &filterAgg{s: scoring.NewFollower(s), sctx: &search.SearchContext{DocumentMatchPool: pool, IndexReader: sh.r},
		scratch: make(index.IndexInternalID, 8), subs: subs}, nil
}

func (f *filterAgg) collect(d doc, owner int) error {
	ok, err := f.matches(d)
	if err != nil || !ok {
		return err
	}
	f.counts = grow(f.counts, owner)
	f.counts[owner]++
	return collectAll(f.subs, d, owner)
}

// matches checks d, or advances the filter's searcher to it unless it is already there
// or past it.
func (f *filterAgg) matches(d doc) (bool, error) {
	if f.check != nil {
		return f.check(d.seg, d.local), nil
	}
	f.scratch.SetValue(d.id)
	return f.s.On(f.sctx, f.scratch)
}

func (f *filterAgg) result(owner int) *partial {
	p := newPartial()
	if owner < len(f.counts) {
		p.docs = f.counts[owner]
	}
	p.buckets = map[string]*pbucket{"": {subs: resultsOf(f.subs, owner)}}
	return p
}

func (f *filterAgg) close() error {
	if f.s == nil {
		return closeAll(f.subs)
	}
	return errors.Join(f.s.Close(), closeAll(f.subs))
}
