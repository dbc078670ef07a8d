package aggs

import (
	"sort"
	"strconv"
	"time"

	"github.com/aislehq/aisle/internal/engine/columns"
)

// termsAgg collects a terms aggregation: a bucket per owner and term ordinal of a
// segment (terms are merged across segments by value in result).
type termsAgg struct {
	a      *Agg
	cols   []*columns.Column // nil on an unmapped field
	ords   bucketOrds
	counts []int64 // per bucket
	subs   []aggregator
	one    [1]uint32
	// leaf counts the top level of a terms aggregation without sub-aggregations, by
	// segment and ordinal: no bucket numbers are needed, and most terms aggregations
	// are such leaves.
	leaf [][]int64
}

func (sh *shard) newTerms(a *Agg, subs []aggregator) (aggregator, error) {
	cols, err := sh.columns(a)
	if err != nil {
		return nil, err
	}
	return &termsAgg{a: a, cols: cols, subs: subs}, nil
}

func (t *termsAgg) collect(d doc, owner int) error {
	if t.cols == nil {
		return nil // unmapped: no buckets (see renderTerms)
	}
	col := t.cols[d.seg]
	ords := col.Ords(d.local, &t.one)
	if len(ords) == 0 {
		if t.a.Missing == nil {
			return nil
		}
		return t.into(ordKey{owner: owner, seg: -1}, 0, d)
	}
	if owner == 0 && len(t.subs) == 0 {
		t.countLeaf(d.seg, len(col.Terms), ords)
		return nil
	}
	for _, o := range ords {
		if err := t.into(ordKey{owner: owner, seg: d.seg, k: int64(o)}, len(col.Terms), d); err != nil {
			return err
		}
	}
	return nil
}

// into counts d in the bucket of k and collects it into the bucket's sub-aggregations.
func (t *termsAgg) into(k ordKey, terms int, d doc) error {
	b := int(t.ords.get(k, terms))
	t.counts = grow(t.counts, b)
	t.counts[b]++
	return collectAll(t.subs, d, b)
}

func (t *termsAgg) countLeaf(seg, terms int, ords []uint32) {
	t.leaf = grow(t.leaf, seg)
	row := t.leaf[seg]
	if row == nil {
		row = make([]int64, terms)
		t.leaf[seg] = row
	}
	for _, o := range ords {
		row[o]++
	}
}

func (t *termsAgg) result(owner int) *partial {
	p := newPartial()
	if owner == 0 {
		for seg, row := range t.leaf {
			for o, n := range row {
				if n > 0 {
					if pb := t.bucketOf(p, ordKey{seg: seg, k: int64(o)}); pb != nil {
						pb.count += n
					}
				}
			}
		}
	}
	for _, b := range t.ords.of(owner) {
		pb := t.bucketOf(p, t.ords.keys[b])
		if pb == nil {
			continue
		}
		pb.count += t.counts[b]
		pb.subs = mergeLists(pb.subs, resultsOf(t.subs, int(b)))
	}
	return p
}

// bucketOf is p's bucket for the value of key k, nil when the term cannot be read. A
// keyword term seen before is found without copying it: most terms of a field recur in
// every segment.
func (t *termsAgg) bucketOf(p *partial, k ordKey) *pbucket {
	if k.seg >= 0 && t.a.Leaf.Type == "keyword" {
		term := t.cols[k.seg].Terms[k.k]
		if pb := p.buckets[string(term)]; pb != nil {
			return pb
		}
	}
	v, ok := t.value(k)
	if !ok {
		return nil
	}
	return p.bucket(t.a.keyOf(v), v)
}

// value is the bucket value of a key: the segment's term, or the `missing` value.
func (t *termsAgg) value(k ordKey) (value, bool) {
	if k.seg < 0 {
		return value{str: toStr(t.a.Missing), num: toNum(t.a.Missing)}, true
	}
	return decodeTerm(t.a, t.cols[k.seg].Terms[k.k])
}

func (t *termsAgg) close() error { return closeAll(t.subs) }

// histogramAgg collects a date_histogram: a bucket per owner and rounded date.
type histogramAgg struct {
	a      *Agg
	cols   []*columns.Column
	ords   bucketOrds
	counts []int64
	subs   []aggregator
	one    [1]uint32
	// The last key computed, and the run of ordinals of its segment that round to it:
	// ordinals are in value order and neighbouring documents mostly fall in the same
	// interval, so most documents need neither their value nor calendar arithmetic.
	key          int64
	seg          int
	ordLo, ordHi uint32
}

func (sh *shard) newHistogram(a *Agg, subs []aggregator) (aggregator, error) {
	cols, err := sh.columns(a)
	if err != nil {
		return nil, err
	}
	return &histogramAgg{a: a, cols: cols, subs: subs, seg: -1}, nil
}

func (h *histogramAgg) collect(d doc, owner int) error {
	if h.cols == nil {
		return nil
	}
	col := h.cols[d.seg]
	ords := col.Ords(d.local, &h.one)
	if len(ords) == 0 {
		return nil
	}
	prev, first := int64(0), true
	for _, o := range ords {
		k := h.round(d.seg, col, o)
		if !first && k == prev {
			continue // ES counts a document once per bucket
		}
		prev, first = k, false
		b := int(h.ords.get(ordKey{owner: owner, k: k}, 0))
		h.counts = grow(h.counts, b)
		h.counts[b]++
		if err := collectAll(h.subs, d, b); err != nil {
			return err
		}
	}
	return nil
}

// round is the key of the bucket of ordinal o of segment seg.
func (h *histogramAgg) round(seg int, col *columns.Column, o uint32) int64 {
	if seg == h.seg && o >= h.ordLo && o < h.ordHi {
		return h.key
	}
	ints := col.Int64s()
	h.key = floorDate(h.a, dateMillis(ints[o]))
	lo, hi := h.key*int64(time.Millisecond), nextDate(h.a, h.key)*int64(time.Millisecond)
	h.seg = seg
	h.ordLo = uint32(sort.Search(int(o), func(i int) bool { return ints[i] >= lo }))
	h.ordHi = o + uint32(sort.Search(len(ints)-int(o), func(i int) bool { return ints[int(o)+i] >= hi }))
	return h.key
}

func (h *histogramAgg) result(owner int) *partial {
	return keyedResult(&h.ords, h.counts, h.subs, owner)
}

// keyedResult is owner's buckets of a histogram, by key (kept in ms).
func keyedResult(ords *bucketOrds, counts []int64, subs []aggregator, owner int) *partial {
	p := newPartial()
	for _, b := range ords.of(owner) {
		k := ords.keys[b].k
		pb := p.bucket(strconv.FormatInt(k, 10), value{})
		pb.ms = k
		pb.count += counts[b]
		pb.subs = mergeLists(pb.subs, resultsOf(subs, int(b)))
	}
	return p
}

func (h *histogramAgg) close() error { return closeAll(h.subs) }
