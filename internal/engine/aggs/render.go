package aggs

import (
	"sort"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// Validate rejects aggregations ES refuses for the field type.
func Validate(aggs []*Agg, index string) error {
	if err := checkGlobals(aggs); err != nil {
		return err
	}
	for _, a := range aggs {
		if err := a.validateField(index); err != nil {
			return err
		}
		if err := a.checkRegexField(index); err != nil {
			return err
		}
		if err := a.checkSigField(index); err != nil {
			return err
		}
		if err := Validate(a.Subs, index); err != nil {
			return err
		}
	}
	return nil
}

func (a *Agg) validateField(index string) error {
	if a.Leaf == nil || a.Type == "filter" {
		return nil
	}
	t := a.Leaf.Type
	switch {
	case t == "text":
		return eserr.SearchPhase(eserr.IllegalArgument("Fielddata is disabled on [%s] in [%s]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [%s] in order to load field data by uninverting the inverted index. Note that this can use significant memory.", a.Field, index, a.Field).With("index", index))
	case mapper.Unqueryable(t):
		return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [%s]", a.Field, t, a.Type).With("index", index))
	case (isNumericMetric(a.Type) || kinds[a.Type].numbers()) && !mapper.Numeric(t) && t != "date" && t != "boolean":
		return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [%s]", a.Field, t, a.Type).With("index", index))
	case a.Type == "date_histogram" && t != "date":
		return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [date_histogram]", a.Field, t).With("index", index))
	case !a.Leaf.DocValues:
		return eserr.SearchPhase(eserr.IllegalArgument("Can't load fielddata on [%s] because fielddata is unsupported on fields of type [%s]. Use doc values instead.", a.Field, t).With("index", index))
	}
	return nil
}

// Render builds the "aggregations" object of a search from its reduced results (see
// Collector.Reduce), aligned with aggs. typedKeys prefixes each name with its type.
func Render(res Result, aggs []*Agg, typedKeys bool) (map[string]any, error) {
	return RenderWith(res, aggs, typedKeys, nil)
}

// RenderWith is Render with fetch rendering the hits of top_hits aggregations.
func RenderWith(res Result, aggs []*Agg, typedKeys bool, fetch Fetch) (map[string]any, error) {
	r := renderer{typedKeys: typedKeys, fetch: fetch}
	return r.level(aggs, func(i int) *partial {
		if i < len(res.parts) {
			return res.parts[i]
		}
		return nil
	})
}

type renderer struct {
	typedKeys bool
	fetch     Fetch
}

// level renders aggs, the i-th from part(i) (nil: empty).
func (r renderer) level(aggs []*Agg, part func(i int) *partial) (map[string]any, error) {
	out := make(map[string]any, len(aggs))
	for i, a := range aggs {
		p := part(i)
		if p == nil {
			p = newPartial()
		}
		val, err := r.one(a, p)
		if err != nil {
			return nil, err
		}
		if a.Meta != nil {
			val["meta"] = a.Meta
		}
		out[r.key(a)] = val
	}
	return out, nil
}

func (r renderer) one(a *Agg, p *partial) (map[string]any, error) {
	if k := kinds[a.Type]; k != nil {
		return k.render(r, a, p)
	}
	switch a.Type {
	case "filter":
		out, err := r.subs(a, p.buckets[""])
		if err != nil {
			return nil, err
		}
		out["doc_count"] = p.docs
		return out, nil
	case "terms":
		return r.terms(p, a)
	case "significant_terms":
		return r.significant(p, a)
	case "date_histogram":
		return r.histogram(p, a)
	}
	return renderMetric(p, a)
}

// subs renders a's sub-aggregations from bucket b (nil: an empty bucket).
func (r renderer) subs(a *Agg, b *pbucket) (map[string]any, error) {
	return r.level(a.Subs, func(i int) *partial { return b.sub(i) })
}

func (r renderer) key(a *Agg) string {
	if !r.typedKeys {
		return a.Name
	}
	prefix := a.Type
	if a.Type == "significant_terms" {
		return sigPrefix(a) + "#" + a.Name
	}
	if a.Type == "terms" {
		switch {
		case a.Leaf == nil:
			prefix = "umterms"
		case a.Leaf.Type == "keyword":
			prefix = "sterms"
		case mapper.Numeric(a.Leaf.Type) && !mapper.Integral(a.Leaf.Type):
			prefix = "dterms"
		default:
			prefix = "lterms"
		}
	}
	return prefix + "#" + a.Name
}

// candidate is a terms bucket being ranked.
type candidate struct {
	v value
	b *pbucket
}

func (r renderer) terms(p *partial, a *Agg) (map[string]any, error) {
	out := map[string]any{"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []any{}}
	if a.Leaf == nil {
		return out, nil
	}
	cands := make([]candidate, 0, len(p.buckets))
	for _, b := range p.buckets {
		v := b.v
		v.count = int(b.count)
		if v.count >= a.MinDocCount && a.accepts(v) {
			cands = append(cands, candidate{v: v, b: b})
		}
	}
	if a.hasSubOrder() {
		buckets, other, err := r.sortBySubAggs(a, cands)
		out["sum_other_doc_count"], out["buckets"] = other, buckets
		return out, err
	}
	sort.Slice(cands, func(i, j int) bool { return less(a, cands[i].v, cands[j].v) })
	other := 0
	if len(cands) > a.Size {
		for _, c := range cands[a.Size:] {
			other += c.v.count
		}
		cands = cands[:a.Size]
	}
	buckets := make([]any, 0, len(cands))
	for _, c := range cands {
		b, err := r.termBucket(a, c)
		if err != nil {
			return nil, err
		}
		buckets = append(buckets, b)
	}
	out["sum_other_doc_count"], out["buckets"] = other, buckets
	return out, nil
}

func (r renderer) termBucket(a *Agg, c candidate) (map[string]any, error) {
	b, err := r.subs(a, c.b)
	if err != nil {
		return nil, err
	}
	b["doc_count"] = c.v.count
	v := c.v
	switch {
	case a.Leaf.Type == "keyword":
		b["key"] = v.str
	case a.Leaf.Type == "boolean" || a.Leaf.Type == "date":
		b["key"] = int64(v.num)
		b["key_as_string"] = v.str
	case mapper.Integral(a.Leaf.Type):
		b["key"] = int64(v.num)
	default:
		b["key"] = v.num
	}
	return b, nil
}

func (r renderer) histogram(p *partial, a *Agg) (map[string]any, error) {
	byKey := make(map[int64]*pbucket, len(p.buckets))
	for _, b := range p.buckets {
		byKey[b.ms] = b
	}
	buckets := []any{}
	lo, hi, ok := histogramBounds(a, byKey)
	if !ok {
		return map[string]any{"buckets": buckets}, nil
	}
	for k := lo; k <= hi; k = nextDate(a, k) {
		pb := byKey[k]
		var n int64
		if pb != nil {
			n = pb.count
		}
		if n < int64(a.MinDocCount) || (n == 0 && a.MinDocCount > 0) {
			continue
		}
		b, err := r.subs(a, pb)
		if err != nil {
			return nil, err
		}
		b["key"], b["key_as_string"], b["doc_count"] = k, formatKey(a, k), n
		if len(buckets) == maxBuckets {
			return nil, tooManyBuckets()
		}
		buckets = append(buckets, b)
	}
	return map[string]any{"buckets": buckets}, nil
}
