package aggs

import (
	"errors"

	"github.com/aislehq/aisle/internal/engine/dsl"
)

// filterAgg collects the documents that also match its filter (see dsl.Matcher: the
// documents arrive in order).
type filterAgg struct {
	m      *dsl.Matcher
	counts []int64 // per owner
	subs   []aggregator
}

func (sh *shard) newFilter(a *Agg, subs []aggregator) (aggregator, error) {
	m, err := sh.matcher(a)
	if err != nil {
		return nil, err
	}
	return &filterAgg{m: m, subs: subs}, nil
}

// matcher binds a's filter to the shard's reader.
func (sh *shard) matcher(a *Agg) (*dsl.Matcher, error) {
	return dsl.NewMatcher(sh.ctx, a.Filter, a.Pred, sh.r, sh.view, sh.m, sh.memo)
}

func (f *filterAgg) collect(d doc, owner int) error {
	ok, err := f.m.Matches(d.seg, d.local, d.id)
	if err != nil || !ok {
		return err
	}
	f.counts = grow(f.counts, owner)
	f.counts[owner]++
	return collectAll(f.subs, d, owner)
}

func (f *filterAgg) result(owner int) *partial {
	p := newPartial()
	if owner < len(f.counts) {
		p.docs = f.counts[owner]
	}
	p.buckets = map[string]*pbucket{"": {subs: resultsOf(f.subs, owner)}}
	return p
}

func (f *filterAgg) close() error { return errors.Join(f.m.Close(), closeAll(f.subs)) }
