package searcher

import (
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/aislehq/aisle/internal/engine/aggs"
	"github.com/aislehq/aisle/internal/engine/store"
)

// topHitFetcher renders the hits of a search's top_hits aggregations as its own hits are
// rendered, with each aggregation's hit options (_source, version, seq_no_primary_term,
// track_scores, highlight of the search's query).
func topHitFetcher(indices []*store.Index, r *Request) aggs.Fetch {
	byName := make(map[string]*store.Index, len(indices))
	for _, ix := range indices {
		byName[ix.Name] = ix
	}
	type prepared struct {
		req *Request
		hl  *highlighters
		n   int
	}
	cache := map[*aggs.TopHits]*prepared{}
	return func(h aggs.TopHit, t *aggs.TopHits) (map[string]any, error) {
		pr := cache[t]
		if pr == nil {
			opts, err := ParseHitOptions(t.Raw, "top_hits", "from", "size", "sort")
			if err != nil {
				return nil, err
			}
			req := opts.request(r.Query)
			req.Sort = t.Sort
			pr = &prepared{req: req, hl: newHighlighters(req)}
			cache[t] = pr
		}
		pr.n++
		dm := &bsearch.DocumentMatch{Index: h.Index, ID: h.ID, Score: h.Score, DecodedSort: h.Sort}
		return renderHit(dm, byName, pr.req, t.Sorted(), h.Types, pr.hl, pr.n-1)
	}
}
