package aggs

import (
	"sort"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// TopHits is a top_hits aggregation: the best From+Size documents of each bucket by
// Sort (the score without one). Raw is the body, whose hit options (_source, version,
// highlight...) the searcher reads when it renders the hits (see Fetch).
type TopHits struct {
	From, Size int
	Sort       []docsort.Spec
	Raw        map[string]any
	leaf       func(string) *mapper.Leaf
}

// maxInnerWindow is ES's index.max_inner_result_window default.
const maxInnerWindow = 100

var topHitsKeys = []string{"from", "size", "sort", "_source", "version", "seq_no_primary_term", "track_scores", "highlight"}

// topHitsUnsupported are top_hits options ES has and the engine does not.
var topHitsUnsupported = []string{"explain", "fields", "stored_fields", "docvalue_fields", "script_fields"}

func parseTopHits(a *Agg, v any, c *dsl.Context) error {
	body, ok := v.(map[string]any)
	if !ok {
		return eserr.Parsing("Expected [START_OBJECT] under [top_hits], but got a [%T] in [%s]", v, a.Name)
	}
	t := &TopHits{Size: 3, Raw: body, leaf: c.Leaf}
	a.extra().Top = t
	for k, val := range body {
		var err error
		switch {
		case k == "from":
			t.From, err = toInt(val)
		case k == "size":
			t.Size, err = toInt(val)
		case k == "sort":
			t.Sort, err = docsort.Parse(val)
		case contains(topHitsUnsupported, k):
			return eserr.IllegalArgument("[top_hits] option [%s] is not supported by this engine", k)
		case !contains(topHitsKeys, k):
			return eserr.Parsing("[top_hits] unknown field [%s]", k).With("line", 1).With("col", 1)
		}
		if err != nil {
			return eserr.Parsing("[top_hits] failed to parse field [%s]", k)
		}
	}
	if t.From+t.Size > maxInnerWindow {
		return eserr.IllegalArgument("Top hits result window is too large, the top hits aggregator [%s]'s from + size must be less than or equal to: [%d] but was [%d]. This limit can be set by changing the [index.max_inner_result_window] index level setting.", a.Name, maxInnerWindow, t.From+t.Size)
	}
	return nil
}

// Sorted reports whether the hits are sorted by something else than the score alone:
// their _score is then not shown, unless track_scores asks for it.
func (t *TopHits) Sorted() bool {
	return len(t.Sort) > 0 && (len(t.Sort) > 1 || t.Sort[0].Field != "_score")
}

// scores reports whether ranking or rendering the hits needs the documents' scores.
func (t *TopHits) scores() bool {
	if len(t.Sort) == 0 || t.Raw["track_scores"] == true {
		return true
	}
	for _, s := range t.Sort {
		if s.Field == "_score" {
			return true
		}
	}
	return false
}

// NeedScores reports whether some top_hits among aggs needs the matches' scores.
func NeedScores(aggs []*Agg) bool {
	for _, a := range aggs {
		if a.Type == "top_hits" && a.X.Top.scores() || NeedScores(a.Subs) {
			return true
		}
	}
	return false
}

// TopHit is one hit of a top_hits bucket, as the shard found it.
type TopHit struct {
	Index string
	ID    string
	Score float64
	Sort  []string // the sort values, as bleve renders them (see docsort.Sorter.Decoded)
	Types []string // the sort fields' types
	key   []docsort.Val
}

// Fetch renders a top_hits hit with the options of t: the searcher's side, which reads
// documents.
type Fetch func(h TopHit, t *TopHits) (map[string]any, error)

// topHitsAgg keeps, per owner, the best documents so far in order. A document costs its
// sort key and, when it ranks, an insertion in a list of at most From+Size.
type topHitsAgg struct {
	t      *TopHits
	sorter *docsort.Sorter
	k, n   int // the list's length and a key's
	lists  []*topList
	key    []docsort.Val
	index  string
}

type topList struct {
	total    int64
	maxScore float64
	docs     []topDoc
	keys     []docsort.Val // slot s's key is keys[s*n : (s+1)*n]
	hits     []TopHit      // once finished
}

type topDoc struct {
	doc   uint64
	score float64
	slot  int
}

func newTopHits(sh *shard, a *Agg, _ []aggregator) (aggregator, error) {
	t := a.X.Top
	specs := t.Sort
	if len(specs) == 0 {
		specs = []docsort.Spec{{Field: "_score", Desc: true}}
	}
	sorter, err := docsort.Bind(specs, sh.view, t.leaf)
	if err != nil {
		return nil, err
	}
	return &topHitsAgg{t: t, sorter: sorter, k: t.From + t.Size, n: sorter.Len(), key: make([]docsort.Val, sorter.Len()), index: sh.index}, nil
}

func (h *topHitsAgg) collect(d doc, owner int) error {
	h.lists = grow(h.lists, owner)
	l := h.lists[owner]
	if l == nil {
		l = &topList{keys: make([]docsort.Val, h.k*h.n)}
		h.lists[owner] = l
	}
	l.total++
	l.maxScore = max(l.maxScore, d.score)
	if h.k == 0 {
		return nil
	}
	h.sorter.Fill(h.key, d.seg, d.local, d.id, d.score)
	specs := h.sorter.Specs()
	// Documents come in order: one that ties with a kept one ranks after it.
	at := len(l.docs)
	for at > 0 && docsort.Compare(specs, h.key, l.slotKey(l.docs[at-1].slot, h.n)) < 0 {
		at--
	}
	if at >= h.k {
		return nil
	}
	slot := len(l.docs)
	if slot == h.k {
		slot = l.docs[h.k-1].slot
		l.docs = l.docs[:h.k-1]
	}
	copy(l.slotKey(slot, h.n), h.key)
	l.docs = append(l.docs, topDoc{})
	copy(l.docs[at+1:], l.docs[at:])
	l.docs[at] = topDoc{doc: d.id, score: d.score, slot: slot}
	return nil
}

func (l *topList) slotKey(slot, n int) []docsort.Val { return l.keys[slot*n : (slot+1)*n] }

// finish reads the kept documents' ids while the reader is open.
func (h *topHitsAgg) finish(sh *shard) error {
	buf := make(index.IndexInternalID, 8)
	for _, l := range h.lists {
		if l == nil {
			continue
		}
		for _, d := range l.docs {
			buf.SetValue(d.doc)
			id, err := sh.r.ExternalID(buf)
			if err != nil {
				return err
			}
			key := l.slotKey(d.slot, h.n)
			l.hits = append(l.hits, TopHit{Index: h.index, ID: id, Score: d.score, Sort: h.sorter.Decoded(key),
				Types: h.sorter.Types(), key: key})
		}
	}
	return nil
}

func (h *topHitsAgg) result(owner int) *partial {
	p := newPartial()
	tp := &topPartial{specs: h.sorter.Specs(), k: h.k}
	if owner < len(h.lists) && h.lists[owner] != nil {
		l := h.lists[owner]
		tp.total, tp.maxScore, tp.hits = l.total, l.maxScore, l.hits
	}
	p.top = tp
	return p
}

func (h *topHitsAgg) close() error { return nil }

// topPartial is a bucket's top hits, merged across indices.
type topPartial struct {
	specs    []docsort.Spec
	k        int
	total    int64
	maxScore float64
	hits     []TopHit
}

// merge returns the union of p and o, best first, cut to k; p may be nil.
func (p *topPartial) merge(o *topPartial) *topPartial {
	if p == nil {
		return o
	}
	out := &topPartial{specs: p.specs, k: p.k, total: p.total + o.total, maxScore: max(p.maxScore, o.maxScore)}
	out.hits = append(append(out.hits, p.hits...), o.hits...)
	sort.SliceStable(out.hits, func(i, j int) bool {
		return docsort.Compare(out.specs, out.hits[i].key, out.hits[j].key) < 0
	})
	if len(out.hits) > out.k {
		out.hits = out.hits[:out.k]
	}
	return out
}

func (r renderer) topHits(a *Agg, p *partial) (map[string]any, error) {
	t, tp := a.X.Top, p.top
	if tp == nil {
		tp = &topPartial{}
	}
	hits := make([]any, 0, len(tp.hits))
	for i, h := range tp.hits {
		if i < t.From {
			continue
		}
		hit, err := r.fetchHit(h, t)
		if err != nil {
			return nil, err
		}
		hits = append(hits, hit)
	}
	var maxScore any
	if t.scores() && tp.total > 0 {
		maxScore = tp.maxScore
	}
	return map[string]any{"hits": map[string]any{"total": map[string]any{"value": tp.total, "relation": "eq"},
		"max_score": maxScore, "hits": hits}}, nil
}

func (r renderer) fetchHit(h TopHit, t *TopHits) (map[string]any, error) {
	if r.fetch == nil {
		return map[string]any{"_index": h.Index, "_id": h.ID, "_score": h.Score}, nil
	}
	return r.fetch(h, t)
}
