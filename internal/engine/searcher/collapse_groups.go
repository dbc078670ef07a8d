package searcher

import (
	"bytes"
	"context"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/numeric"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// groupTable collapses one index reader's matches: the best document so far of each
// value, per segment, in arrays by the value's ordinal (the segment's documents without
// a value are one more group). A document costs a column lookup, its sort key and that
// of its group's best. The segments' groups of one value are merged once the matches
// are all seen, when only the best few groups are kept.
type groupTable struct {
	c      *collapser
	r      index.IndexReader
	view   *columns.View
	offs   []uint64          // each segment's first document number in the reader
	cols   []*columns.Column // the field's column per segment
	sorter *docsort.Sorter
	after  []docsort.Val // search_after's key, nil without
	segs   []segGroups
	key    []docsort.Val // the current document's
	best   []docsort.Val // its group's best document's
	one    [1]uint32
	hint   int
	top    []*groupHit // the best groups, once the reader's matches are all seen
}

// segGroups are a segment's groups: by ordinal, and the documents without a value.
type segGroups struct {
	best      []uint32  // local number + 1 of the best document; 0: no document yet
	score     []float64 // its score, when the search scores
	null      uint32
	nullScore float64
}

func (c *collapser) newTable(r index.IndexReader, v *columns.View) (*groupTable, error) {
	sorter, err := docsort.Bind(c.specs, v, c.leafOf)
	if err != nil {
		return nil, eserr.SearchPhase(eserr.As(err))
	}
	prefix := ""
	if c.leaf.Type != "keyword" {
		prefix = columns.FullPrecision
	}
	cols, err := v.Field(c.spec.Field, prefix)
	if err != nil {
		return nil, err
	}
	n := sorter.Len()
	t := &groupTable{c: c, r: r, view: v, cols: cols, sorter: sorter, segs: make([]segGroups, len(cols)),
		offs: make([]uint64, len(cols)), key: make([]docsort.Val, n), best: make([]docsort.Val, n)}
	for i := range cols {
		t.offs[i] = v.Offset(i)
	}
	if c.after != nil {
		t.after = sorter.After(c.after)
	}
	return t, nil
}

// collect files a matching document under its group.
func (t *groupTable) collect(d *search.DocumentMatch) error {
	num := d.IndexInternalID.Value()
	seg, local := t.view.Locate(d.IndexInternalID, t.hint)
	t.hint = seg
	ords := t.cols[seg].Ords(local, &t.one)
	if len(ords) > 1 {
		return eserr.IllegalArgument("failed to collapse %d, the collapse field must be single valued", num)
	}
	t.sorter.Fill(t.key, seg, local, num, d.Score)
	if t.after != nil && docsort.Compare(t.c.specs, t.key, t.after) <= 0 {
		return nil
	}
	sg := &t.segs[seg]
	best, score := &sg.null, &sg.nullScore
	if len(ords) == 1 {
		sg.alloc(len(t.cols[seg].Terms), t.c.scores)
		best = &sg.best[ords[0]]
		if sg.score != nil {
			score = &sg.score[ords[0]]
		}
	}
	if *best != 0 {
		// Documents come in order: one that ties with the best so far is not better.
		prev := uint64(*best - 1)
		t.sorter.Fill(t.best, seg, prev, t.offs[seg]+prev, *score)
		if docsort.Compare(t.c.specs, t.key, t.best) >= 0 {
			return nil
		}
	}
	*best, *score = uint32(local+1), d.Score
	return nil
}

// groupArrays recycles segments' group arrays from search to search: a collapse on a
// field of 100,000 values would allocate 1.2 MB a search otherwise.
var groupArrays = sync.Pool{New: func() any { return &segGroups{} }}

func (sg *segGroups) alloc(terms int, scores bool) {
	if sg.best != nil {
		return
	}
	pooled := groupArrays.Get().(*segGroups)
	sg.best = resize(pooled.best, terms)
	if scores {
		sg.score = resize(pooled.score, terms)
	}
}

// resize returns s with n zero elements, reusing its array when it is large enough.
func resize[T uint32 | float64](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// release gives the table's arrays back to the pool, once its groups are read.
func (t *groupTable) release() {
	for i := range t.segs {
		if sg := &t.segs[i]; sg.best != nil {
			groupArrays.Put(&segGroups{best: sg.best, score: sg.score})
			t.segs[i] = segGroups{}
		}
	}
}

// finish keeps the window's best groups and reads their ids, while the reader is open.
func (t *groupTable) finish() error {
	top := newTopGroups(t.c.window, t.c.specs, t.sorter.Len())
	for seg := range t.segs {
		sg := &t.segs[seg]
		if sg.null != 0 {
			t.offer(top, seg, -1, sg.null, sg.nullScore)
		}
		for o, best := range sg.best {
			if best != 0 {
				score := 0.0
				if sg.score != nil {
					score = sg.score[o]
				}
				t.offer(top, seg, o, best, score)
			}
		}
	}
	t.release()
	buf := make(index.IndexInternalID, 8)
	for _, h := range top.hits {
		buf.SetValue(h.doc)
		id, err := t.r.ExternalID(buf)
		if err != nil {
			return err
		}
		h.id, h.decoded = id, t.sorter.Decoded(h.key)
	}
	t.top = top.hits
	return nil
}

// offer proposes the best document (local number + 1) of the group of ordinal o (-1:
// no value) of segment seg.
func (t *groupTable) offer(top *topGroups, seg, o int, best uint32, score float64) {
	local := uint64(best - 1)
	doc := t.offs[seg] + local
	t.sorter.Fill(t.key, seg, local, doc, score)
	var term []byte
	if o >= 0 {
		term = t.cols[seg].Terms[o]
	}
	top.offer(t.key, term, o < 0, doc, score)
}

// topGroups keeps the best groups of distinct values offered, at most k, best first.
type topGroups struct {
	k     int
	specs []docsort.Spec
	n     int
	hits  []*groupHit
}

func newTopGroups(k int, specs []docsort.Spec, n int) *topGroups {
	return &topGroups{k: k, specs: specs, n: n}
}

func (g *topGroups) before(key []docsort.Val, doc uint64, h *groupHit) bool {
	if x := docsort.Compare(g.specs, key, h.key); x != 0 {
		return x < 0
	}
	return doc < h.doc
}

// offer keeps a group's document if it ranks among the k best groups: in place of its
// value's, if it is better, or of the worst group.
func (g *topGroups) offer(key []docsort.Val, term []byte, null bool, doc uint64, score float64) {
	if g.k == 0 || (len(g.hits) == g.k && !g.before(key, doc, g.hits[g.k-1])) {
		return
	}
	at := -1
	for i, h := range g.hits {
		if h.null == null && bytes.Equal(h.term, term) {
			at = i
			break
		}
	}
	switch {
	case at >= 0 && !g.before(key, doc, g.hits[at]):
		return
	case at >= 0:
		g.hits = append(g.hits[:at], g.hits[at+1:]...)
	case len(g.hits) == g.k:
		g.hits = g.hits[:g.k-1]
	}
	h := &groupHit{term: term, null: null, key: append([]docsort.Val(nil), key...), doc: doc, score: score}
	i := len(g.hits)
	for i > 0 && g.before(key, doc, g.hits[i-1]) {
		i--
	}
	g.hits = append(g.hits, nil)
	copy(g.hits[i+1:], g.hits[i:])
	g.hits[i] = h
}

// tops are the best groups of the table, for index number shard.
func (t *groupTable) tops(shard int, index string) []*groupHit {
	for _, h := range t.top {
		h.shard, h.index = shard, index
	}
	return t.top
}

// collapseQuery runs a query with its matches collapsed into a group table.
type collapseQuery struct {
	bq.Query
	c   *collapser
	out **groupTable
}

func (q *collapseQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	v, ok := columns.ViewOf(r)
	if !ok {
		return nil, fmt.Errorf("collapse needs a scorch index, got %T", r)
	}
	t, err := q.c.newTable(r, v)
	if err != nil {
		return nil, err
	}
	*q.out = t
	inner, err := q.Query.Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	return dsl.Tap(inner, t.collect, t.finish), nil
}

// termValue is the value of a keyword or numeric column term, as ES renders it.
func termValue(l *mapper.Leaf, term []byte) (any, bool) {
	if l.Type == "keyword" {
		return string(term), true
	}
	i, err := numeric.PrefixCoded(term).Int64()
	if err != nil {
		return nil, false
	}
	f := numeric.Int64ToFloat64(i)
	if mapper.Integral(l.Type) {
		return int64(f), true
	}
	return f, true
}
