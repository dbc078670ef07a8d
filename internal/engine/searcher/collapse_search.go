package searcher

import (
	"context"
	"sort"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/store"
)

// collapser runs a collapsed search, as ES's collapsing collector does: each index's
// matches are grouped by the field's value as they are found, keeping each group's best
// document by the search's sort (read from per-segment columns, see docsort); the
// indices' best groups are merged by value, and the window of groups asked for becomes
// the hits. The total counts documents, as in ES.
type collapser struct {
	spec   *Collapse
	leaf   *mapper.Leaf
	specs  []SortSpec // the search's sort, _score descending without one
	leafOf func(string) *mapper.Leaf
	window int      // groups kept per index: from + size
	from   int      // groups skipped
	after  []string // search_after as encoded for bleve, nil without
	scores bool     // documents are scored
	// values is, once searched, the group value of each hit (nil: the documents
	// without a value).
	values []any
}

func newCollapser(r *Request, qc *dsl.Context, index string, after []string) (*collapser, error) {
	leaf, err := collapseLeaf(r.Collapse, qc, index)
	if err != nil {
		return nil, err
	}
	specs := r.Sort
	if len(specs) == 0 {
		specs = []SortSpec{{Field: "_score", Desc: true}}
	}
	c := &collapser{spec: r.Collapse, leaf: leaf, specs: specs, leafOf: qc.Leaf, window: r.From + r.Size,
		from: r.From, after: after, scores: r.TrackScores}
	for _, s := range specs {
		c.scores = c.scores || s.Field == "_score"
	}
	return c, nil
}

// groupHit is a group's best document, as an index found it.
type groupHit struct {
	shard   int
	index   string
	term    []byte // the group's value as its column term; nil with null
	null    bool
	key     []docsort.Val
	doc     uint64
	score   float64
	id      string
	decoded []string
}

// before says whether a ranks before b: by sort, then index, then document order.
func (c *collapser) before(a, b *groupHit) bool {
	if x := docsort.Compare(c.specs, a.key, b.key); x != 0 {
		return x < 0
	}
	if a.shard != b.shard {
		return a.shard < b.shard
	}
	return a.doc < b.doc
}

// search runs q collapsed over each index and merges their groups.
func (c *collapser) search(ctx context.Context, indices []*store.Index, q bq.Query) (*bleve.SearchResult, error) {
	tables := make([]*groupTable, len(indices))
	results := make([]*bleve.SearchResult, len(indices))
	g, gctx := errgroup.WithContext(ctx)
	for i, ix := range indices {
		g.Go(func() error {
			req := bleve.NewSearchRequestOptions(&collapseQuery{Query: q, c: c, out: &tables[i]}, 0, 0, false)
			if !c.scores {
				req.Score = bleve.ScoreNone
			}
			res, err := ix.Bleve().SearchInContext(gctx, req)
			results[i] = res
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	out := &bleve.SearchResult{}
	var tops []*groupHit
	for i, res := range results {
		out.Total += res.Total
		out.MaxScore = max(out.MaxScore, res.MaxScore)
		if tables[i] != nil {
			tops = append(tops, tables[i].tops(i, indices[i].Name)...)
		}
	}
	c.toHits(out, c.merge(tops))
	return out, nil
}

// merge keeps the best hit of each value, ranked.
func (c *collapser) merge(tops []*groupHit) []*groupHit {
	var byValue = map[string]*groupHit{}
	var null *groupHit
	for _, h := range tops {
		if h.null {
			if null == nil || c.before(h, null) {
				null = h
			}
			continue
		}
		if old := byValue[string(h.term)]; old == nil || c.before(h, old) {
			byValue[string(h.term)] = h
		}
	}
	out := make([]*groupHit, 0, len(byValue)+1)
	for _, h := range byValue {
		out = append(out, h)
	}
	if null != nil {
		out = append(out, null)
	}
	sort.Slice(out, func(i, j int) bool { return c.before(out[i], out[j]) })
	return out
}

// toHits sets the hits of res to the groups of the window, and records their values.
func (c *collapser) toHits(res *bleve.SearchResult, groups []*groupHit) {
	if len(groups) > c.window {
		groups = groups[:c.window]
	}
	if c.from >= len(groups) {
		return
	}
	for _, h := range groups[c.from:] {
		res.Hits = append(res.Hits, &bsearch.DocumentMatch{Index: h.index, ID: h.id, Score: h.score, DecodedSort: h.decoded})
		c.values = append(c.values, c.value(h))
	}
}

// value is a group's value as ES shows it in the hit's fields.
func (c *collapser) value(h *groupHit) any {
	if h.null {
		return nil
	}
	v, ok := termValue(c.leaf, h.term)
	if !ok {
		return nil
	}
	return v
}
