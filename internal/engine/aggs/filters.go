package aggs

import (
	"errors"
	"sort"
	"strconv"

	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

// filtersSpec is a filters aggregation: a bucket per filter, named (keyed, sorted by
// name, as ES sorts them) or anonymous (in order), and optionally the other bucket of
// the documents no filter matches.
type filtersSpec struct {
	filters   []namedFilter
	anonymous bool
	keyed     bool
	other     bool
	otherKey  string
}

type namedFilter struct {
	name string
	q    bq.Query
	pred *dsl.Pred
}

func parseFilters(a *Agg, v any, c *dsl.Context) error {
	body, ok := v.(map[string]any)
	if !ok {
		return eserr.Parsing("Expected [START_OBJECT] under [filters], but got a [%T] in [%s]", v, a.Name)
	}
	f := &filtersSpec{keyed: true, otherKey: "_other_"}
	a.extra().Filters = f
	for k, val := range body {
		switch k {
		case "filters":
		case "other_bucket":
			f.other, _ = val.(bool)
		case "other_bucket_key":
			f.otherKey, _ = val.(string)
			f.other = true
		case "keyed":
			f.keyed, _ = val.(bool)
		default:
			return eserr.Parsing("[filters] unknown field [%s]", k).With("line", 1).With("col", 1)
		}
	}
	return f.parseList(body["filters"], c)
}

// parseList reads the filters: an object of named filters or an array of anonymous ones.
func (f *filtersSpec) parseList(v any, c *dsl.Context) error {
	add := func(name string, raw any) error {
		q, err := dsl.ParseValue(raw, c)
		if err == nil {
			f.filters = append(f.filters, namedFilter{name: name, q: q, pred: dsl.PredicateOf(q, c)})
		}
		return err
	}
	switch x := v.(type) {
	case map[string]any:
		names := make([]string, 0, len(x))
		for n := range x {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if err := add(n, x[n]); err != nil {
				return err
			}
		}
	case []any:
		f.anonymous = true
		for i, raw := range x {
			if err := add(strconv.Itoa(i), raw); err != nil {
				return err
			}
		}
	}
	if len(f.filters) == 0 {
		return eserr.IllegalArgument("[filters] cannot be empty.")
	}
	return nil
}

// filtersAgg collects a bucket per filter and the other bucket. Bucket b of owner o is
// number o*n+b for the sub-aggregations, n being the buckets per owner.
type filtersAgg struct {
	spec   *filtersSpec
	ms     []*dsl.Matcher
	n      int
	counts []int64
	subs   []aggregator
}

func newFilters(sh *shard, a *Agg, subs []aggregator) (aggregator, error) {
	spec := a.X.Filters
	f := &filtersAgg{spec: spec, n: len(spec.filters), subs: subs}
	if spec.other {
		f.n++
	}
	for _, nf := range spec.filters {
		m, err := dsl.NewMatcher(sh.ctx, nf.q, nf.pred, sh.r, sh.view, sh.m, sh.memo)
		if err != nil {
			return nil, errors.Join(err, f.close())
		}
		f.ms = append(f.ms, m)
	}
	return f, nil
}

func (f *filtersAgg) collect(d doc, owner int) error {
	matched := false
	for i, m := range f.ms {
		ok, err := m.Matches(d.seg, d.local, d.id)
		if err != nil {
			return err
		}
		if ok {
			matched = true
			if err := f.into(owner*f.n+i, d); err != nil {
				return err
			}
		}
	}
	if f.spec.other && !matched {
		return f.into(owner*f.n+f.n-1, d)
	}
	return nil
}

func (f *filtersAgg) into(b int, d doc) error {
	f.counts = grow(f.counts, b)
	f.counts[b]++
	return collectAll(f.subs, d, b)
}

// result keys the owner's buckets by their position.
func (f *filtersAgg) result(owner int) *partial {
	p := newPartial()
	for i := range f.n {
		b := owner*f.n + i
		pb := p.bucket(strconv.Itoa(i), value{})
		if b < len(f.counts) {
			pb.count = f.counts[b]
		}
		pb.subs = resultsOf(f.subs, b)
	}
	return p
}

func (f *filtersAgg) close() error {
	errs := []error{closeAll(f.subs)}
	for _, m := range f.ms {
		errs = append(errs, m.Close())
	}
	return errors.Join(errs...)
}

func (r renderer) filters(a *Agg, p *partial) (map[string]any, error) {
	spec := a.X.Filters
	names := make([]string, 0, len(spec.filters)+1)
	for _, nf := range spec.filters {
		names = append(names, nf.name)
	}
	if spec.other {
		names = append(names, spec.otherKey)
	}
	keyed := map[string]any{}
	list := make([]any, 0, len(names))
	for i, name := range names {
		b, err := r.counted(a, p.buckets[strconv.Itoa(i)])
		if err != nil {
			return nil, err
		}
		if !spec.anonymous && !spec.keyed {
			b["key"] = name
		}
		keyed[name] = b
		list = append(list, b)
	}
	if spec.anonymous || !spec.keyed {
		return map[string]any{"buckets": list}, nil
	}
	return map[string]any{"buckets": keyed}, nil
}

// counted renders bucket pb (nil: empty) with its document count.
func (r renderer) counted(a *Agg, pb *pbucket) (map[string]any, error) {
	b, err := r.subs(a, pb)
	if err != nil {
		return nil, err
	}
	b["doc_count"] = int64(0)
	if pb != nil {
		b["doc_count"] = pb.count
	}
	return b, nil
}
