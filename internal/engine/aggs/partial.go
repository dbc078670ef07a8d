package aggs

import "math"

// partial is one aggregation's result for one bucket of its parent, in one shard or
// reduced over several. Buckets are keyed by their value, so that the same term seen in
// two segments or two indices merges into one bucket.
type partial struct {
	docs int64 // documents collected: a filter's doc_count, a significant_terms' subset
	// superset is a significant_terms' background size.
	superset int64
	missing  int64               // documents without a value (metrics' and terms' `missing`)
	buckets  map[string]*pbucket // terms and date_histogram buckets, by value
	// metrics
	sum      float64
	count    int64   // values observed (value_count, avg, stats)
	sumSq    float64 // extended_stats
	min, max float64
	has      bool                // some value was seen (min, max)
	distinct map[string]struct{} // cardinality: the values seen
	top      *topPartial         // top_hits
}

// pbucket is one bucket of a partial: its key, documents and sub-aggregation results
// (aligned with the aggregation's Subs; nil entries are empty).
type pbucket struct {
	v     value
	ms    int64 // date_histogram key
	count int64
	bg    int64 // significant_terms: background documents holding the term
	subs  []*partial
}

func newPartial() *partial { return &partial{min: math.Inf(1), max: math.Inf(-1)} }

// bucket returns the bucket of key k, creating it from v.
func (p *partial) bucket(k string, v value) *pbucket {
	if p.buckets == nil {
		p.buckets = map[string]*pbucket{}
	}
	b := p.buckets[k]
	if b == nil {
		b = &pbucket{v: v}
		p.buckets[k] = b
	}
	return b
}

// observe records a metric value.
func (p *partial) observe(x float64) {
	p.sum += x
	p.count++
	p.sumSq += x * x
	p.min = math.Min(p.min, x)
	p.max = math.Max(p.max, x)
	p.has = true
}

// merge adds o into p.
func (p *partial) merge(o *partial) {
	if o == nil {
		return
	}
	p.docs += o.docs
	p.superset += o.superset
	p.missing += o.missing
	p.sum += o.sum
	p.count += o.count
	p.sumSq += o.sumSq
	if o.top != nil {
		p.top = p.top.merge(o.top)
	}
	if o.has {
		p.min, p.max, p.has = math.Min(p.min, o.min), math.Max(p.max, o.max), true
	}
	for k := range o.distinct {
		if p.distinct == nil {
			p.distinct = map[string]struct{}{}
		}
		p.distinct[k] = struct{}{}
	}
	for k, ob := range o.buckets {
		b := p.bucket(k, ob.v)
		b.ms = ob.ms
		b.count += ob.count
		b.bg += ob.bg
		b.subs = mergeLists(b.subs, ob.subs)
	}
}

// mergeLists merges aligned lists of results; into may be empty or hold nil entries.
func mergeLists(into, from []*partial) []*partial {
	if len(from) == 0 {
		return into
	}
	if len(into) == 0 {
		into = make([]*partial, len(from))
	}
	for i, f := range from {
		if f == nil {
			continue
		}
		if into[i] == nil {
			into[i] = newPartial()
		}
		into[i].merge(f)
	}
	return into
}

// sub is the i-th sub-aggregation result of b, empty when there is none.
func (b *pbucket) sub(i int) *partial {
	if b == nil || i >= len(b.subs) || b.subs[i] == nil {
		return newPartial()
	}
	return b.subs[i]
}

// bucketOrds numbers the buckets of one bucket aggregation in one shard. A bucket is an
// owner (the parent's bucket number) and a key: a segment's term ordinal, or a date
// histogram key. Sub-aggregators keep their state by these numbers, as Lucene's
// LongKeyedBucketOrds does.
type bucketOrds struct {
	root    [][]int32 // owner 0's term buckets by segment and ordinal, as number+1
	keyed   map[ordKey]int32
	keys    []ordKey
	byOwner [][]int32
	last    ordKey // the last key looked up in keyed, and its number
	lastNum int32
	hasLast bool
}

type ordKey struct {
	owner int
	seg   int // -1: the missing bucket
	k     int64
}

// get returns the number of the bucket of key, creating it.
func (b *bucketOrds) get(key ordKey, terms int) int32 {
	if key.owner == 0 && key.seg >= 0 && terms > 0 {
		return b.getRoot(key, terms)
	}
	if b.hasLast && key == b.last {
		return b.lastNum
	}
	n, ok := b.keyed[key]
	if !ok {
		if b.keyed == nil {
			b.keyed = map[ordKey]int32{}
		}
		n = b.add(key)
		b.keyed[key] = n
	}
	b.last, b.lastNum, b.hasLast = key, n, true
	return n
}

// getRoot is get for owner 0's term buckets, by array: the hot path of top-level terms.
func (b *bucketOrds) getRoot(key ordKey, terms int) int32 {
	for len(b.root) <= key.seg {
		b.root = append(b.root, nil)
	}
	row := b.root[key.seg]
	if row == nil {
		row = make([]int32, terms)
		b.root[key.seg] = row
	}
	if n := row[key.k]; n > 0 {
		return n - 1
	}
	n := b.add(key)
	row[key.k] = n + 1
	return n
}

func (b *bucketOrds) add(key ordKey) int32 {
	n := int32(len(b.keys))
	b.keys = append(b.keys, key)
	for len(b.byOwner) <= key.owner {
		b.byOwner = append(b.byOwner, nil)
	}
	b.byOwner[key.owner] = append(b.byOwner[key.owner], n)
	return n
}

// of lists owner's buckets.
func (b *bucketOrds) of(owner int) []int32 {
	if owner >= len(b.byOwner) {
		return nil
	}
	return b.byOwner[owner]
}

// grow returns s long enough to index i.
func grow[T any](s []T, i int) []T {
	for len(s) <= i {
		var zero T
		s = append(s, zero)
	}
	return s
}
