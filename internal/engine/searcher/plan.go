package searcher

import (
	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/docsort"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/store"
)

// plan is a search request translated for bleve over some indices.
type plan struct {
	req   *bleve.SearchRequest
	query bq.Query // as parsed: req.Query may wrap it to collect aggregations
	aggs  []*aggs.Agg
	route route
	// coll collects the aggregations in the hits search (route.aggs is aggsInHits).
	coll      *aggs.Collector
	sortTypes []string // of each value of the request's sort; nil when it has none
	// loopSpecs are the sort clauses the loop ranks hits by: nil to rank them by score.
	loopSpecs []docsort.Spec
	post      *postFilter
	collapse  *collapser
	// memo shares the predicates' checks in the pass that finds the hits (see dsl.Memo).
	memo  *dsl.Memo
	named bool         // the query names some of its clauses
	qc    *dsl.Context // the query's parser context
}

// sorted reports whether hits follow the request's sort rather than the score alone.
func (p *plan) sorted() bool { return p.sortTypes != nil }

func newPlan(indices []*store.Index, r *Request) (*plan, error) {
	q, qc, err := buildQuery(indices, r.Query, r.Size)
	if err != nil {
		return nil, err
	}
	named := qc.Named // the query's: names in aggregation filters mark no hit, as in ES
	if err := checkHighlightQueries(indices, r); err != nil {
		return nil, err
	}
	parsed, err := parseAggs(r.Aggs, qc, indices[0].Name)
	if err != nil {
		return nil, err
	}
	p := &plan{req: bleve.NewSearchRequestOptions(dsl.WithNamed(q, named), r.Size, r.From, false), query: q, aggs: parsed,
		memo: dsl.NewMemo(), named: len(named) > 0, qc: qc}
	if err := p.sort(r, qc, indices[0].Name); err != nil {
		return nil, err
	}
	if err := p.narrowHits(r, qc, indices[0].Name); err != nil {
		return nil, err
	}
	p.route = routeOf(p.routeCase(indices, r))
	if p.route.aggs == aggsInHits {
		p.coll = aggs.NewCollector(parsed)
		p.coll.Index, p.coll.Memo = indices[0].Name, p.memo
		p.req.Query = p.coll.Wrap(p.req.Query)
	}
	// Around the aggregations' collector, never inside it (see postFilter.wrap).
	p.req.Query = p.post.wrap(p.req.Query, p.memo)
	if r.Size == 0 && !aggs.NeedScores(parsed) {
		p.req.Score = bleve.ScoreNone // no hit is returned: scores are never read
	}
	return p, nil
}

func parseAggs(raw map[string]any, qc *dsl.Context, index string) ([]*aggs.Agg, error) {
	if raw == nil {
		return nil, nil
	}
	parsed, err := aggs.Parse(raw, qc)
	if err != nil {
		return nil, err
	}
	if err := aggs.Validate(parsed, index); err != nil {
		return nil, err
	}
	return parsed, nil
}

// sort sets the request's sort order and its search_after values, if any.
func (p *plan) sort(r *Request, qc *dsl.Context, index string) error {
	sorts, types, err := buildSort(r.Sort, qc, index)
	if err != nil || sorts == nil {
		return err
	}
	p.req.Sort, p.sortTypes = sorts, types
	if r.SearchAfter == nil {
		return nil
	}
	formats := make([]string, len(r.Sort))
	for i, sp := range r.Sort {
		if l := qc.Leaf(sp.Field); l != nil {
			formats[i] = l.Format
		}
	}
	after, err := encodeAfter(r.SearchAfter, types, formats)
	if err != nil {
		return err
	}
	p.req.SearchAfter = after
	return nil
}

// BuildQuery parses the request's query (match_all when absent) for the indices.
func BuildQuery(indices []*store.Index, raw any) (bq.Query, *dsl.Context, error) {
	return buildQuery(indices, raw, 0)
}

// buildQuery is BuildQuery for a search of size hits (a knn query's default k; 0: 10).
func buildQuery(indices []*store.Index, raw any, size int) (bq.Query, *dsl.Context, error) {
	qc := QueryContext(indices)
	qc.Size = size
	if raw == nil {
		return dsl.Top(bleve.NewMatchAllQuery()), qc, nil
	}
	q, err := dsl.ParseValue(raw, qc)
	if err != nil {
		return nil, nil, err
	}
	return dsl.Top(q), qc, nil
}

// narrowHits parses what narrows or groups the plan's hits: the post_filter and the
// collapse.
func (p *plan) narrowHits(r *Request, qc *dsl.Context, index string) error {
	f, err := newPostFilter(r.PostFilter, qc)
	if err != nil {
		return err
	}
	p.post = f
	if r.Collapse == nil {
		return nil
	}
	c, err := newCollapser(r, qc, index, p.req.SearchAfter)
	if r.Size > 0 {
		p.collapse = c
	}
	return err
}
