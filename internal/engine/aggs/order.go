package aggs

import (
	"cmp"
	"math"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// subOrder is a terms order on a sub-aggregation path ("max_number", "high.doc_count",
// "filter>max_number"): single-bucket aggregations (filter) along the path, then a
// single-value metric (min, max, sum, cardinality) or a bucket's doc count at the end.
type subOrder struct {
	path []string
	prop string // "value" or "doc_count"
	// missing is what an empty metric sorts as: ES compares a max without values as
	// -Infinity and a min as +Infinity.
	missing float64
}

func isSubOrder(key string) bool { return key != "_count" && key != "_key" }

func (a *Agg) hasSubOrder() bool {
	for _, o := range a.Order {
		if o.sub != nil {
			return true
		}
	}
	return false
}

// resolveOrder checks sub-aggregation order paths once the sub-aggregations are known.
func (a *Agg) resolveOrder() error {
	for i := range a.Order {
		o := &a.Order[i]
		if !isSubOrder(o.Key) {
			continue
		}
		sub, err := a.resolvePath(o.Key)
		if err != nil {
			return err
		}
		o.sub = sub
	}
	return nil
}

func (a *Agg) resolvePath(key string) (*subOrder, error) {
	names := strings.Split(key, ">")
	last, prop, _ := strings.Cut(names[len(names)-1], ".")
	names[len(names)-1] = last
	so := &subOrder{path: names}
	subs := a.Subs
	var target *Agg
	for i, n := range names {
		target = findAgg(subs, n)
		if target == nil {
			return nil, eserr.IllegalArgument("Invalid aggregation order path [%s]. The provided aggregation [%s] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.", key, n)
		}
		if i < len(names)-1 && target.Type != "filter" {
			return nil, badOrderPath(key)
		}
		subs = target.Subs
	}
	switch {
	case target.Type == "filter" && (prop == "" || prop == "doc_count" || prop == "_count"):
		so.prop = "doc_count"
	case (isNumericMetric(target.Type) || target.Type == "cardinality") && (prop == "" || prop == "value"):
		so.prop = "value"
		so.missing = map[string]float64{"max": math.Inf(-1), "min": math.Inf(1)}[target.Type]
	default:
		return nil, badOrderPath(key)
	}
	return so, nil
}

func badOrderPath(key string) error {
	return eserr.IllegalArgument("Invalid aggregation order path [%s]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.", key)
}

func findAgg(aggs []*Agg, name string) *Agg {
	for _, s := range aggs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// value reads the order value from a rendered bucket.
func (so *subOrder) value(bucket map[string]any) float64 {
	m := bucket
	for _, n := range so.path {
		next, _ := m[n].(map[string]any)
		if next == nil {
			return so.missing
		}
		m = next
	}
	switch v := m[so.prop].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	}
	return so.missing
}

// sortBySubAggs renders every bucket (its sub-aggregations decide its rank), sorts them and
// keeps the first size; ES likewise computes the sub-aggregations of all candidate buckets.
func (r renderer) sortBySubAggs(a *Agg, cands []candidate) ([]any, int, error) {
	type ranked struct {
		v      value
		bucket map[string]any
		keys   []float64
	}
	all := make([]ranked, len(cands))
	for i, c := range cands {
		b, err := r.termBucket(a, c)
		if err != nil {
			return nil, 0, err
		}
		all[i] = ranked{v: c.v, bucket: b, keys: make([]float64, len(a.Order))}
		for j, o := range a.Order {
			if o.sub != nil {
				all[i].keys[j] = o.sub.value(b)
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		for k, o := range a.Order {
			c := 0
			if o.sub != nil {
				c = cmp.Compare(all[i].keys[k], all[j].keys[k])
			} else {
				c = compareBy(a, o.Key, all[i].v, all[j].v)
			}
			if o.Desc {
				c = -c
			}
			if c != 0 {
				return c < 0
			}
		}
		return false
	})
	other := 0
	if len(all) > a.Size {
		for _, x := range all[a.Size:] {
			other += x.v.count
		}
		all = all[:a.Size]
	}
	buckets := make([]any, len(all))
	for i, x := range all {
		buckets[i] = x.bucket
	}
	return buckets, other, nil
}
