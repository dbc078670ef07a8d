package searcher

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/aislehq/aisle/internal/engine/dsl"
	"github.com/aislehq/aisle/internal/engine/store"
)

// Options are URL-level switches that change the response shape.
type Options struct {
	TypedKeys          bool
	RestTotalHitsAsInt bool
}

// scoreJSON renders a score as the float32 it is, as ES does: bleve keeps scores in a
// float64, which would print digits the float never had.
func scoreJSON(score float64) json.Number {
	f := float32(score)
	if a := math.Abs(float64(f)); a != 0 && (a < 1e-6 || a >= 1e21) {
		return json.Number(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return json.Number(strconv.FormatFloat(float64(f), 'f', -1, 32))
}

func shards(n int) map[string]any {
	return map[string]any{"total": n, "successful": n, "skipped": 0, "failed": 0}
}

func emptyResponse(r *Request, o Options) map[string]any {
	hits := map[string]any{"max_score": nil, "hits": []any{}}
	if r.TrackTotal != 0 {
		if o.RestTotalHitsAsInt {
			hits["total"] = 0
		} else {
			hits["total"] = map[string]any{"value": 0, "relation": "eq"}
		}
	}
	return map[string]any{"took": 0, "timed_out": false, "_shards": shards(0), "hits": hits}
}

func hitsObject(res *bleve.SearchResult, hits []any, r *Request, o Options, sorted bool) map[string]any {
	out := map[string]any{"hits": hits}
	if sorted && !r.TrackScores {
		out["max_score"] = nil
	} else if len(res.Hits) == 0 {
		out["max_score"] = nil
	} else {
		out["max_score"] = scoreJSON(res.MaxScore)
	}
	if r.TrackTotal == 0 {
		if o.RestTotalHitsAsInt {
			out["total"] = -1
		}
		return out
	}
	total, rel := res.Total, "eq"
	if r.TrackTotal > 0 && total > uint64(r.TrackTotal) {
		total, rel = uint64(r.TrackTotal), "gte"
	}
	if o.RestTotalHitsAsInt {
		out["total"] = total
	} else {
		out["total"] = map[string]any{"value": total, "relation": rel}
	}
	return out
}

func renderHit(h *bsearch.DocumentMatch, byName map[string]*store.Index, r *Request, sorted bool, types []string, hl *highlighters, n int) (map[string]any, error) {
	ix := byName[h.Index]
	if ix == nil && len(byName) == 1 {
		for _, only := range byName {
			ix = only
		}
	}
	hit := map[string]any{"_index": h.Index, "_id": h.ID}
	if ix != nil {
		hit["_index"] = ix.Name
	}
	if sorted && !r.TrackScores {
		hit["_score"] = nil
	} else {
		hit["_score"] = scoreJSON(h.Score)
	}
	if names := dsl.MatchedQueries(h); len(names) > 0 {
		hit["matched_queries"] = names
	}
	var doc *store.Doc
	if ix != nil {
		var err error
		if doc, err = ix.Get(h.ID); err != nil {
			return nil, err
		}
	}
	if doc != nil {
		if r.Version {
			hit["_version"] = doc.Version
		}
		if r.SeqNoTerm {
			hit["_seq_no"] = doc.SeqNo
			hit["_primary_term"] = doc.Term
		}
		if src := r.Source.Apply(doc.Source); src != nil {
			hit["_source"] = src
		}
		if len(r.Fields) > 0 && ix != nil {
			fields, err := fieldValues(ix.Mapping(), doc.Source, r.Fields)
			if err != nil {
				return nil, err
			}
			if fields != nil {
				hit["fields"] = fields
			}
		}
	}
	if err := hl.add(hit, ix, doc, n); err != nil {
		return nil, err
	}
	if sorted {
		descs := make([]bool, len(r.Sort))
		for i, sp := range r.Sort {
			descs[i] = sp.Desc
		}
		hit["sort"] = decodeSort(h, types, descs)
	}
	return hit, nil
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
