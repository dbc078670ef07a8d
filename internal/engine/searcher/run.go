package searcher

import (
	"context"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Run executes a search and returns the ES response body.
func Run(ctx context.Context, indices []*store.Index, r *Request, o Options) (map[string]any, error) {
	start := time.Now()
	if err := validate(indices, r, o); err != nil {
		return nil, err
	}
	if len(indices) == 0 {
		// Elasticsearch parses the aggregations before it looks for shards: a malformed
		// one is refused even where nothing is searched.
		if _, err := parseAggs(r.Aggs, QueryContext(nil), ""); err != nil {
			return nil, err
		}
		return emptyResponse(r, o), nil
	}
	indices, failed, err := dropFailingIndices(indices, r.Query)
	if err != nil {
		return nil, err
	}
	p, err := newPlan(indices, r)
	if err != nil {
		return nil, err
	}
	if p.coll != nil {
		defer p.coll.Close() //nolint:errcheck // closing searchers of a finished search
	}
	res, aggResult, err := p.search(ctx, indices, r)
	if err != nil {
		return nil, eserr.SearchPhase(eserr.New(400, "query_shard_exception", "failed to execute query: %s", err.Error()).With("index", indices[0].Name))
	}
	hits, err := renderHits(res, indices, r, p)
	if err != nil {
		return nil, err
	}
	if p.collapse != nil {
		if err := p.collapse.expand(ctx, hits, indices, r, o); err != nil {
			return nil, err
		}
	}
	resp := map[string]any{
		"took": time.Since(start).Milliseconds(), "timed_out": false,
		"_shards": shardsWithFailures(len(indices), failed),
		"hits":    hitsObject(res, hits, r, o, p.sorted()),
	}
	if p.aggs != nil {
		out, err := aggs.RenderWith(aggResult, p.aggs, o.TypedKeys, topHitFetcher(indices, r))
		if err != nil {
			return nil, err
		}
		resp["aggregations"] = out
	}
	return resp, nil
}

// validate checks what does not depend on the indices' mappings; it may turn an exact
// track_total_hits into the default for rest_total_hits_as_int.
func validate(indices []*store.Index, r *Request, o Options) error {
	if err := r.Validate(maxWindow(indices)); err != nil {
		return shardCheckOrder(indices, r, err)
	}
	if err := r.checkCollapse(); err != nil {
		return err
	}
	if err := r.CheckOptions(o); err != nil {
		return err
	}
	if o.RestTotalHitsAsInt && r.TrackTotal == 10000 {
		r.TrackTotal = -1
	}
	return nil
}

// CheckOptions applies ES's check of the request against its URL options: totals as
// integers need exact totals.
func (r *Request) CheckOptions(o Options) error {
	if o.RestTotalHitsAsInt && r.TrackTotal > 0 && r.TrackTotal != 10000 {
		return eserr.ActionValidation(fmt.Sprintf("[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got %d", r.TrackTotal))
	}
	return nil
}

// plan is a search request translated for bleve over some indices.
type plan struct {
	req   *bleve.SearchRequest
	query bq.Query // as parsed: req.Query may wrap it to collect aggregations
	aggs  []*aggs.Agg
	// coll collects the aggregations in the hits search: set when hits are asked of a
	// single index (see search).
	coll      *aggs.Collector
	sortTypes []string // of each value of the request's sort; nil when it has none
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
	if parsed != nil && len(indices) == 1 && r.Size > 0 {
		p.coll = aggs.NewCollector(parsed)
		p.coll.Index, p.coll.Memo = indices[0].Name, p.memo
		p.req.Query = p.coll.Wrap(p.req.Query)
	}
	if err := p.narrowHits(r, qc, indices[0].Name); err != nil {
		return nil, err
	}
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

func renderHits(res *bleve.SearchResult, indices []*store.Index, r *Request, p *plan) ([]any, error) {
	byName := make(map[string]*store.Index, len(indices))
	for _, ix := range indices {
		byName[ix.Name] = ix
	}
	hits := make([]any, 0, len(res.Hits))
	hl := newHighlighters(r)
	for i, h := range res.Hits {
		hit, err := renderHit(h, byName, r, p.sorted(), p.sortTypes, hl, i)
		if err != nil {
			return nil, err
		}
		hits = append(hits, hit)
	}
	return hits, nil
}
