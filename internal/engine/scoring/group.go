package scoring

import "github.com/blevesearch/bleve/v2/search"

// group is the clauses of a compound searcher, and the parts of search.Searcher that
// only add up theirs.
type group []search.Searcher

// Close implements search.Searcher.
func (g group) Close() error {
	var first error
	for _, s := range g {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Weight implements search.Searcher: Lucene 9 has no query norm to compute from it.
func (g group) Weight() float64 { return 1 }

// SetQueryNorm implements search.Searcher: ignored (see Weight).
func (g group) SetQueryNorm(float64) {}

// Size implements search.Searcher.
func (g group) Size() int {
	n := 64
	for _, s := range g {
		n += s.Size()
	}
	return n
}

// Count implements search.Searcher: an upper bound.
func (g group) Count() uint64 {
	var n uint64
	for _, s := range g {
		n += s.Count()
	}
	return n
}

// Min implements search.Searcher.
func (g group) Min() int { return 0 }

// DocumentMatchPoolSize implements search.Searcher: a match held per clause, and what
// the clauses hold.
func (g group) DocumentMatchPoolSize() int {
	n := len(g)
	for _, s := range g {
		n += s.DocumentMatchPoolSize()
	}
	return n
}
