package searchquery

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/aislehq/aisle/internal/indexmapping"
)

// Search by meaning (docs/ranking.md, "Search by meaning"): a request's hybrid names an
// embedder and its vector is the query's. The kNN search of that vector adds to the
// score's fraction beside BM25, below tailShare, so the words criteria always decide
// first and a weak model can only reorder ties:
//
//	fraction = tailShare × ((1-r)·BM25/bound + r·similarity)
//
// The records of the kNN top k also match without any query word; they hold no word
// level, so they rank after every record matching a word. A ratio of 1, or a query with
// no words, is meaning only: the kNN top k ordered by similarity (after the bands that
// do not come from words: quantized custom ranking, the rules).

// Hybrid asks for search by meaning with an embedder of the index.
type Hybrid struct {
	Embedder string `json:"embedder"`
	// SemanticRatio weighs similarity against BM25 in the tie-breaker: 0 words only, 1
	// meaning only (default DefaultSemanticRatio).
	SemanticRatio *float64 `json:"semanticRatio"`
}

// Semantic search's defaults: DefaultSemanticRatio is the ratio that never ranks
// worse than words alone on the judged benchmark (docs/benchmarks.md); semanticK is
// the size of the kNN top k, which is what meaning alone can add to a search.
const (
	DefaultSemanticRatio = 0.02
	semanticK            = 100
	semanticCandidates   = 200
)

// semanticPlan is the kNN clause of a request.
type semanticPlan struct {
	field  string
	vector []float64
	ratio  float64
	// filters pre-filter the kNN search, so its k are records the search can return.
	filters []any
}

// semanticOf validates hybrid and vector against the index's embedders; nil without
// hybrid.
func semanticOf(req Request, r Access, p *problems) *semanticPlan {
	if req.Hybrid == nil {
		if req.Vector != nil {
			p.add("vector", "needs hybrid, naming the vector's embedder")
		}
		return nil
	}
	es := indexmapping.Embedders(r.Settings)
	e, known := es[req.Hybrid.Embedder]
	if !known {
		p.add("hybrid.embedder", "%q is not an embedder of the index (embedders: %s)", req.Hybrid.Embedder, embedderList(es))
	}
	ratio := DefaultSemanticRatio
	if req.Hybrid.SemanticRatio != nil {
		if ratio = *req.Hybrid.SemanticRatio; ratio < 0 || ratio > 1 {
			p.add("hybrid.semanticRatio", "must be between 0 and 1, got %g", ratio)
		}
	}
	switch {
	case req.Vector == nil:
		p.add("vector", "is required with hybrid: a userProvided embedder computes no query vector")
	case known && len(req.Vector) != int(e.Dimensions):
		p.add("vector", "must be %d numbers (embedder %s's dimensions), got %d", e.Dimensions, req.Hybrid.Embedder, len(req.Vector))
	case !slices.ContainsFunc(req.Vector, func(x float64) bool { return x != 0 }):
		p.add("vector", "must not be all zeros (a cosine needs a direction)")
	case slices.ContainsFunc(req.Vector, func(x float64) bool { return math.Abs(x) > math.MaxFloat32 }):
		p.add("vector", "holds a number out of range for a float")
	}
	return &semanticPlan{field: indexmapping.VectorPath(req.Hybrid.Embedder), vector: req.Vector, ratio: ratio}
}

func embedderList[V any](es map[string]V) string {
	if len(es) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(es)), ", ")
}

// meaningOnly: the words do not rank (ratio 1) or there are none.
func (s *semanticPlan) meaningOnly(words int) bool {
	return s != nil && (s.ratio == 1 || words == 0)
}

// clause is the kNN query, its similarity (0..1 for cosine) scaled by boost.
func (s *semanticPlan) clause(boost float64) any {
	knn := map[string]any{"field": s.field, "query_vector": s.vector, "k": semanticK,
		"num_candidates": semanticCandidates, "boost": boost}
	if len(s.filters) > 0 {
		knn["filter"] = s.filters
	}
	return map[string]any{"knn": knn}
}

// share is the kNN clause's boost: its part of the score's fraction.
func (s *semanticPlan) share() float64 { return tailShare * s.ratio }

// blend scales the BM25 tie-breaker to its part of the fraction, 1-ratio.
func (s *semanticPlan) blend(t *tieBreak) {
	if s != nil && t != nil {
		t.boost *= 1 - s.ratio
	}
}

// orMeaning: the records the words match, or those of the kNN top k.
func (s *semanticPlan) orMeaning(must []any) []any {
	if s == nil {
		return must
	}
	return []any{boolQ(map[string][]any{"should": {boolQ(map[string][]any{"must": must}), s.clause(s.share())}})}
}

// meaningQuery is the query of meaning only: the kNN top k, ranked by the bands that
// do not come from words, then by similarity.
func (s *semanticPlan) meaningQuery(ranked []any) any {
	return boolQ(map[string][]any{"must": {s.clause(tailShare)}, "should": ranked})
}
