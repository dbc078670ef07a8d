package aggs

import (
	"math"

	"github.com/blevesearch/bleve/v2/numeric"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

var histogramParams = []string{"field", "interval", "offset", "min_doc_count", "extended_bounds", "hard_bounds", "keyed", "order", "missing", "format"}

// maxBuckets is ES's search.max_buckets default.
const maxBuckets = 65536

func tooManyBuckets() error {
	return eserr.New(400, "too_many_buckets_exception", "Trying to create too many buckets. Must be less than or equal to: [%d] but was [%d]. This limit can be set by changing the [search.max_buckets] cluster level setting.", maxBuckets, maxBuckets+1).
		With("max_buckets", maxBuckets)
}

// numHisto is a histogram on numbers: bucket keys are floor((x-offset)/interval),
// shown as key*interval+offset; empty buckets between the first and the last (and the
// extended bounds) are shown unless min_doc_count is above 0.
type numHisto struct {
	interval, offset   float64
	minDocCount        int64
	boundsLo, boundsHi *float64
}

func parseNumHistogram(a *Agg, body map[string]any) error {
	h := &numHisto{}
	a.extra().Histogram = h
	a.X.Keyed, _ = body["keyed"].(bool)
	iv, err := toNumber(body["interval"])
	if body["interval"] == nil || err != nil || iv <= 0 {
		return eserr.IllegalArgument("[interval] must be >0 for histogram aggregation [%s]", a.Name)
	}
	h.interval = iv
	if v, ok := body["offset"]; ok {
		if h.offset, err = toNumber(v); err != nil {
			return eserr.Parsing("[histogram] failed to parse field [offset]")
		}
	}
	if v, ok := body["min_doc_count"]; ok {
		n, err := toInt(v)
		if err != nil || n < 0 {
			return eserr.IllegalArgument("[min_doc_count] must be greater than or equal to 0. Found [%v] in [%s]", v, a.Name)
		}
		h.minDocCount = int64(n)
	}
	for _, k := range []string{"hard_bounds", "order"} {
		if _, ok := body[k]; ok {
			return eserr.IllegalArgument("[histogram] %s is not supported by this engine", k)
		}
	}
	return h.parseBounds(body["extended_bounds"])
}

func (h *numHisto) parseBounds(v any) error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return eserr.Parsing("[histogram] [extended_bounds] must be an object")
	}
	for k, x := range m {
		n, err := toNumber(x)
		if err != nil {
			return eserr.Parsing("[extended_bounds] failed to parse field [%s]", k)
		}
		switch k {
		case "min":
			h.boundsLo = &n
		case "max":
			h.boundsHi = &n
		default:
			return eserr.Parsing("[extended_bounds] unknown field [%s]", k)
		}
	}
	return nil
}

// bucket is the key of the bucket of x.
func (h *numHisto) bucket(x float64) int64 {
	return int64(math.Floor((x - h.offset) / h.interval))
}

func (h *numHisto) keyOf(k int64) float64 { return float64(k)*h.interval + h.offset }

// numHistoAgg collects a histogram: a bucket per owner and key. A document counts once
// per bucket its values fall in.
type numHistoAgg struct {
	a      *Agg
	h      *numHisto
	cols   []*columns.Column
	ords   bucketOrds
	counts []int64
	subs   []aggregator
	one    [1]uint32
}

func newNumHistogram(sh *shard, a *Agg, subs []aggregator) (aggregator, error) {
	cols, err := sh.columns(a)
	if err != nil {
		return nil, err
	}
	return &numHistoAgg{a: a, h: a.X.Histogram, cols: cols, subs: subs}, nil
}

func (n *numHistoAgg) collect(d doc, owner int) error {
	var ords []uint32
	if n.cols != nil {
		ords = n.cols[d.seg].Ords(d.local, &n.one)
	}
	if len(ords) == 0 {
		if n.a.Missing == nil {
			return nil
		}
		mv, err := toNumber(n.a.Missing)
		if err != nil {
			return eserr.IllegalArgument("[missing] value [%v] of [%s] is not a number", n.a.Missing, n.a.Name)
		}
		return n.into(owner, n.h.bucket(mv), d)
	}
	ints := n.cols[d.seg].Int64s()
	prev := int64(0)
	for i, o := range ords {
		x := numeric.Int64ToFloat64(ints[o])
		if n.a.Leaf.Type == "date" {
			x = float64(dateMillis(ints[o]))
		}
		k := n.h.bucket(x)
		if i > 0 && k == prev {
			continue // values ascend: a document counts once per bucket
		}
		prev = k
		if err := n.into(owner, k, d); err != nil {
			return err
		}
	}
	return nil
}

func (n *numHistoAgg) into(owner int, k int64, d doc) error {
	b := int(n.ords.get(ordKey{owner: owner, k: k}, 0))
	n.counts = grow(n.counts, b)
	n.counts[b]++
	return collectAll(n.subs, d, b)
}

func (n *numHistoAgg) result(owner int) *partial {
	return keyedResult(&n.ords, n.counts, n.subs, owner)
}

func (n *numHistoAgg) close() error { return closeAll(n.subs) }

func (r renderer) numHistogram(a *Agg, p *partial) (map[string]any, error) {
	h := a.X.Histogram
	byKey := make(map[int64]*pbucket, len(p.buckets))
	for _, b := range p.buckets {
		byKey[b.ms] = b
	}
	lo, hi, ok := h.span(byKey)
	if !ok {
		return map[string]any{"buckets": []any{}}, nil
	}
	if h.minDocCount == 0 && hi-lo >= maxBuckets {
		return nil, tooManyBuckets()
	}
	list, keyed := []any{}, map[string]any{}
	for k := lo; k <= hi; k++ {
		pb := byKey[k]
		if pb == nil && h.minDocCount > 0 {
			continue
		}
		b, err := r.histoBucket(a, k, pb)
		if err != nil || b == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		list = append(list, b)
		keyed[javaDouble(h.keyOf(k))] = b
	}
	if a.X.Keyed {
		return map[string]any{"buckets": keyed}, nil
	}
	return map[string]any{"buckets": list}, nil
}

// histoBucket renders the bucket of key k; nil when min_doc_count leaves it out.
func (r renderer) histoBucket(a *Agg, k int64, pb *pbucket) (map[string]any, error) {
	h := a.X.Histogram
	var count int64
	if pb != nil {
		count = pb.count
	}
	if count < h.minDocCount {
		return nil, nil
	}
	b, err := r.subs(a, pb)
	if err != nil {
		return nil, err
	}
	b["key"], b["doc_count"] = h.keyOf(k), count
	if a.Format != "" {
		b["key_as_string"] = decimalFormat(a.Format, h.keyOf(k))
	}
	return b, nil
}

// span is the range of keys shown: those with documents, widened to the extended bounds
// when empty buckets are shown; ok is false when there are none.
func (h *numHisto) span(byKey map[int64]*pbucket) (lo, hi int64, ok bool) {
	if h.minDocCount > 0 {
		return keySpan(byKey)
	}
	var bounds []int64
	for _, b := range []*float64{h.boundsLo, h.boundsHi} {
		if b != nil {
			bounds = append(bounds, h.bucket(*b))
		}
	}
	return keySpan(byKey, bounds...)
}

// keySpan is the lowest and the highest of the keys of byKey and of more; ok is false
// when there is none.
func keySpan[B any](byKey map[int64]B, more ...int64) (lo, hi int64, ok bool) {
	add := func(k int64) {
		if !ok {
			lo, hi, ok = k, k, true
		}
		lo, hi = min(lo, k), max(hi, k)
	}
	for k := range byKey {
		add(k)
	}
	for _, k := range more {
		add(k)
	}
	return lo, hi, ok
}
