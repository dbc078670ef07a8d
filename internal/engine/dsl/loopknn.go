package dsl

import (
	"github.com/blevesearch/bleve/v2/search"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/knn"
	"github.com/aislehq/aisle/internal/engine/loop"
)

// knnNode is knnQuery.scorer's plan: the kNN search runs once, when planned (its filter
// found as bleve finds it), and the loop matches its top k with their scores, as
// hitsSearcher scores them: the similarity times the boost, a float32 product.
func (p *planner) knnNode(q *knnQuery, boost float32) (loop.Node, error) {
	req := q.req
	if q.filter != nil {
		f, err := docsOf(p.ctx, q.filter, p.r, p.m, search.SearcherOptions{})
		if err != nil {
			return nil, err
		}
		req.Filter = f
	}
	hits, err := knn.Search(p.r, req)
	if err != nil {
		return nil, eserr.IllegalArgument("%s", err.Error())
	}
	if len(hits) == 0 {
		return loop.None{}, nil
	}
	b := q.times(boost)
	n := &loop.Hits{Docs: make([]uint64, len(hits)), Scores: make([]float64, len(hits))}
	for i, h := range hits { // knn.Search answers in document order
		n.Docs[i], n.Scores[i] = h.Doc, float64(h.Score*b)
	}
	return n, nil
}
