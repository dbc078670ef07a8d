package searcher

import (
	"context"
	"fmt"
	"sort"

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

// groupTable collapses one index reader's matches: the best document of each group so far.
// A document costs a column lookup, its sort key and a comparison; groups are found by
// ordinal, per segment, and a new group's value is looked up across segments once.
type groupTable struct {
	c      *collapser
	r      index.IndexReader
	view   *columns.View
	cols   []*columns.Column // the field's column per segment; nil when unmapped here
	sorter *docsort.Sorter
	after  []docsort.Val // search_after's key, nil without
	n      int           // values in a key
	bySeg  [][]int32     // group number + 1 of each ordinal of each segment
	byTerm map[string]int32
	null   int32 // group number + 1 of the documents without a value
	groups []group
	keys   []docsort.Val // group g's key is keys[g*n : (g+1)*n]
	key    []docsort.Val // the current document's
	one    [1]uint32
	hint   int
	top    []*groupHit // the best groups, once the reader's matches are all seen
}

type group struct {
	term  []byte
	doc   uint64
	score float64
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
	t := &groupTable{c: c, r: r, view: v, cols: cols, sorter: sorter, n: sorter.Len(),
		bySeg: make([][]int32, v.Segments()), key: make([]docsort.Val, sorter.Len())}
	if c.after != nil {
		t.after = sorter.After(c.after)
	}
	if v.Segments() > 1 {
		t.byTerm = map[string]int32{}
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
	g, fresh := t.group(seg, ords)
	best := t.keys[int(g)*t.n : int(g+1)*t.n]
	if fresh || docsort.Compare(t.c.specs, t.key, best) < 0 {
		copy(best, t.key)
		t.groups[g].doc, t.groups[g].score = num, d.Score
	}
	return nil
}

// group is the number of the group of ordinals ords of segment seg; fresh when new.
func (t *groupTable) group(seg int, ords []uint32) (g int32, fresh bool) {
	if len(ords) == 0 {
		if t.null == 0 {
			t.null = t.add(nil) + 1
			return t.null - 1, true
		}
		return t.null - 1, false
	}
	row := t.bySeg[seg]
	if row == nil {
		row = make([]int32, len(t.cols[seg].Terms))
		t.bySeg[seg] = row
	}
	o := ords[0]
	if row[o] > 0 {
		return row[o] - 1, false
	}
	term := t.cols[seg].Terms[o]
	if g, ok := t.byTerm[string(term)]; ok {
		row[o] = g + 1
		return g, false
	}
	g = t.add(term)
	row[o] = g + 1
	if t.byTerm != nil {
		t.byTerm[string(term)] = g
	}
	return g, true
}

func (t *groupTable) add(term []byte) int32 {
	t.groups = append(t.groups, group{term: term})
	for range t.n {
		t.keys = append(t.keys, docsort.Val{})
	}
	return int32(len(t.groups) - 1)
}

// finish keeps the window's best groups and reads their ids, while the reader is open.
func (t *groupTable) finish() error {
	order := make([]int32, len(t.groups))
	for i := range order {
		order[i] = int32(i)
	}
	sort.Slice(order, func(i, j int) bool { return t.before(order[i], order[j]) })
	if len(order) > t.c.window {
		order = order[:t.c.window]
	}
	buf := make(index.IndexInternalID, 8)
	for _, g := range order {
		gr := t.groups[g]
		buf.SetValue(gr.doc)
		id, err := t.r.ExternalID(buf)
		if err != nil {
			return err
		}
		key := t.keys[int(g)*t.n : int(g+1)*t.n]
		t.top = append(t.top, &groupHit{term: gr.term, null: t.null == g+1, key: key, doc: gr.doc,
			score: gr.score, id: id, decoded: t.sorter.Decoded(key)})
	}
	return nil
}

func (t *groupTable) before(a, b int32) bool {
	ka, kb := t.keys[int(a)*t.n:int(a+1)*t.n], t.keys[int(b)*t.n:int(b+1)*t.n]
	if x := docsort.Compare(t.c.specs, ka, kb); x != 0 {
		return x < 0
	}
	return t.groups[a].doc < t.groups[b].doc
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
