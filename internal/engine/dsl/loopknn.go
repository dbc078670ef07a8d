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
	req, err := p.knnFilter(q)
	if err != nil {
		return nil, err
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

// knnFilter is q's request with its filter: a predicate's check from columns where the
// filter is one (the kNN search then checks only the documents it compares, where
// finding every document of a hybrid search's price range cost more than the scans of
// the vectors), else the documents bleve finds.
func (p *planner) knnFilter(q *knnQuery) (knn.Request, error) {
	req := q.req
	if q.filter == nil {
		return req, nil
	}
	if pr := PredicateOf(q.filter, p.c); pr != nil {
		c, err := p.check(pr)
		req.Check = c
		return req, err
	}
	f, err := docsOf(p.ctx, q.filter, p.r, p.m, search.SearcherOptions{})
	req.Filter = f
	return req, err
}
