package columns

import (
	"bytes"
	"math"
	"sort"
	"sync"

	"github.com/blevesearch/bleve/v2/numeric"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// FullPrecision prefixes the full-precision terms of numeric and date fields, the column
// to read for their exact values: bleve would index each number at several precisions,
// and only shift 0 holds the exact value.
var FullPrecision = string([]byte{numeric.ShiftStartInt64})

// Column maps each document of one segment to the ordinals of its terms in one field.
// Ordinals index Terms, which is in dictionary (byte) order.
type Column struct {
	Terms [][]byte
	// single holds ord+1 per document (0: no value) while no document has two values,
	// in single8 or single16 instead when the column's terms fit (see narrow);
	// otherwise starts/ords hold every document's ordinals (compressed sparse rows).
	single   []uint32
	single8  []uint8
	single16 []uint16
	starts   []uint32
	ords     []uint32
	// docs[o] is how many (document, term) pairs have an ordinal below o: an estimate of
	// how many documents a run of ordinals matches.
	docs []uint32

	intsOnce sync.Once
	ints     []int64
	numsOnce sync.Once
	nums     []float64
}

// Ords returns doc's ordinals without allocating: in one when the column is
// single-valued, otherwise a view of the column's rows, which the caller must not change.
func (c *Column) Ords(doc uint64, one *[1]uint32) []uint32 {
	if s, single := c.singleAt(doc); single {
		if s == 0 {
			return nil
		}
		one[0] = s - 1
		return one[:]
	}
	if doc+1 >= uint64(len(c.starts)) {
		return nil
	}
	return c.ords[c.starts[doc]:c.starts[doc+1]]
}

// Int64s is the value of each term of a numeric or date column (bleve's prefix-coded
// full-precision terms), decoded on first use: aggregations read a value per document.
func (c *Column) Int64s() []int64 {
	c.intsOnce.Do(func() {
		c.ints = make([]int64, len(c.Terms))
		for i, t := range c.Terms {
			c.ints[i], _ = numeric.PrefixCoded(t).Int64()
		}
	})
	return c.ints
}

// Float64s is the number of each term of a numeric column (bleve indexes numbers as
// sortable int64s of their float64 bits), decoded on first use: metrics read a value
// per document.
func (c *Column) Float64s() []float64 {
	c.numsOnce.Do(func() {
		ints := c.Int64s()
		c.nums = make([]float64, len(ints))
		for i, n := range ints {
			c.nums[i] = numeric.Int64ToFloat64(n)
		}
	})
	return c.nums
}

// AnyIn reports whether doc has an ordinal in [from, to).
func (c *Column) AnyIn(doc uint64, from, to uint32) bool {
	if s, single := c.singleAt(doc); single {
		o := s - 1 // wraps to MaxUint32 for a document without value
		return o >= from && o < to
	}
	if doc+1 >= uint64(len(c.starts)) {
		return false
	}
	for _, o := range c.ords[c.starts[doc]:c.starts[doc+1]] {
		if o >= from && o < to {
			return true
		}
	}
	return false
}

// singleAt is ord+1 of a document of a single-valued column (0: no value); single is
// false when the column is multi-valued.
func (c *Column) singleAt(doc uint64) (s uint32, single bool) {
	switch {
	case c.single8 != nil:
		if doc < uint64(len(c.single8)) {
			s = uint32(c.single8[doc])
		}
	case c.single16 != nil:
		if doc < uint64(len(c.single16)) {
			s = uint32(c.single16[doc])
		}
	case c.single != nil:
		if doc < uint64(len(c.single)) {
			s = c.single[doc]
		}
	default:
		return 0, false
	}
	return s, true
}

// narrow keeps a single-valued column's ordinals in the smallest type that holds them:
// a search reads its filters' and aggregations' columns at each matching document, and
// columns of one or two bytes a document (brands, categories, stock levels, prices of a
// segment) keep more of them in the processor's caches than four.
func (c *Column) narrow() {
	switch {
	case c.single == nil:
		return
	case len(c.Terms) < math.MaxUint8:
		c.single8 = make([]uint8, len(c.single))
		for d, s := range c.single {
			c.single8[d] = uint8(s)
		}
	case len(c.Terms) < math.MaxUint16:
		c.single16 = make([]uint16, len(c.single))
		for d, s := range c.single {
			c.single16[d] = uint16(s)
		}
	default:
		return
	}
	c.single = nil
}

// build reads field's terms that start with prefix, and their postings, from seg.
func build(seg segment.Segment, field string, prefix []byte) (*Column, error) {
	dict, err := seg.Dictionary(field)
	if err != nil {
		return nil, err
	}
	n := seg.Count()
	b := &builder{c: &Column{single: make([]uint32, n), docs: []uint32{0}}, n: n}
	var end []byte
	if len(prefix) > 0 {
		end = prefixEnd(prefix)
	}
	it := dict.AutomatonIterator(nil, prefix, end)
	for {
		de, err := it.Next()
		if err != nil {
			return nil, err
		}
		if de == nil {
			break
		}
		if !bytes.HasPrefix([]byte(de.Term), prefix) {
			continue
		}
		if err := b.addTerm(dict, de.Term); err != nil {
			return nil, err
		}
	}
	if b.multi != nil {
		b.c.toRows(b.multi)
	}
	b.c.narrow()
	return b.c, nil
}

// builder fills a column term by term, in term order.
type builder struct {
	c *Column
	n uint64 // documents in the segment
	// Multi-valued documents are rare: they are kept aside and folded in at the end.
	multi map[uint64][]uint32
	pl    segment.PostingsList     // reused from term to term
	pit   segment.PostingsIterator // reused from term to term
}

// addTerm gives the next term its ordinal and records it for each of its documents.
func (b *builder) addTerm(dict segment.TermDictionary, term string) error {
	ord := uint32(len(b.c.Terms))
	b.c.Terms = append(b.c.Terms, []byte(term))
	var err error
	if b.pl, err = dict.PostingsList([]byte(term), nil, b.pl); err != nil {
		return err
	}
	b.c.docs = append(b.c.docs, b.c.docs[ord]+uint32(b.pl.Count()))
	b.pit = b.pl.Iterator(false, false, false, b.pit)
	for {
		p, err := b.pit.Next()
		if err != nil || p == nil {
			return err
		}
		if d := p.Number(); d < b.n {
			b.add(d, ord)
		}
	}
}

func (b *builder) add(d uint64, ord uint32) {
	switch {
	case b.multi != nil && b.multi[d] != nil:
		b.multi[d] = append(b.multi[d], ord)
	case b.c.single[d] == 0:
		b.c.single[d] = ord + 1
	default:
		if b.multi == nil {
			b.multi = map[uint64][]uint32{}
		}
		b.multi[d] = []uint32{b.c.single[d] - 1, ord}
	}
}

// toRows switches the column to compressed sparse rows once some document has two values.
func (c *Column) toRows(multi map[uint64][]uint32) {
	c.starts = make([]uint32, len(c.single)+1)
	for d, s := range c.single {
		c.starts[d] = uint32(len(c.ords))
		if m := multi[uint64(d)]; m != nil {
			c.ords = append(c.ords, m...)
		} else if s != 0 {
			c.ords = append(c.ords, s-1)
		}
	}
	c.starts[len(c.single)] = uint32(len(c.ords))
	c.single = nil
}

// prefixEnd is the smallest key greater than every key starting with prefix (nil: none).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// DocFreq is how many documents of the segment hold ordinal o, deleted ones included
// (what Lucene's docFreq counts).
func (c *Column) DocFreq(o uint32) int64 { return int64(c.docs[o+1] - c.docs[o]) }

// Ord finds the ordinal of term; ok is false when the segment does not hold it.
func (c *Column) Ord(term []byte) (uint32, bool) {
	i := sort.Search(len(c.Terms), func(i int) bool { return bytes.Compare(c.Terms[i], term) >= 0 })
	return uint32(i), i < len(c.Terms) && bytes.Equal(c.Terms[i], term)
}
