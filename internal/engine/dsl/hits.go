package dsl

import (
	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/knn"
)

// hitsSearcher matches documents found beforehand (a kNN search's), in document order,
// each with its score times the boost.
type hitsSearcher struct {
	hits  []knn.Hit
	boost float32
	at    int
}

func newHitsSearcher(hits []knn.Hit, boost float32) *hitsSearcher {
	return &hitsSearcher{hits: hits, boost: boost}
}

// Next implements search.Searcher.
func (s *hitsSearcher) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	if s.at >= len(s.hits) {
		return nil, nil
	}
	h := s.hits[s.at]
	s.at++
	dm := ctx.DocumentMatchPool.Get()
	dm.IndexInternalID = index.NewIndexInternalID(dm.IndexInternalID, h.Doc)
	// The product is a float, as Lucene's score times its BoostQuery's boost.
	dm.Score = float64(h.Score * s.boost)
	return dm, nil
}

// Advance implements search.Searcher.
func (s *hitsSearcher) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	target := id.Value()
	for s.at < len(s.hits) && s.hits[s.at].Doc < target {
		s.at++
	}
	return s.Next(ctx)
}

// Close implements search.Searcher.
func (s *hitsSearcher) Close() error { return nil }

// Weight implements search.Searcher.
func (s *hitsSearcher) Weight() float64 { return 1 }

// SetQueryNorm implements search.Searcher: the scores are final.
func (s *hitsSearcher) SetQueryNorm(float64) {}

// Count implements search.Searcher.
func (s *hitsSearcher) Count() uint64 { return uint64(len(s.hits)) }

// Min implements search.Searcher.
func (s *hitsSearcher) Min() int { return 0 }

// Size implements search.Searcher.
func (s *hitsSearcher) Size() int { return 64 + 16*len(s.hits) }

// DocumentMatchPoolSize implements search.Searcher.
func (s *hitsSearcher) DocumentMatchPoolSize() int { return 1 }
