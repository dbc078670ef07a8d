package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// phraseQuery is Lucene's PhraseQuery (one term per position) or MultiPhraseQuery (the
// last position of match_phrase_prefix holds the prefix's expansions): bleve's phrase
// searcher finds the occurrences, and a document scores BM25 with the number of them
// as the frequency and the idfs of all the terms summed, as Lucene does.
type phraseQuery struct {
	boosted
	field     string
	positions [][]string
}

func newPhraseQuery(field string, positions [][]string) *phraseQuery {
	return &phraseQuery{boosted: unboosted(), field: field, positions: positions}
}

func (q *phraseQuery) match() bq.Query {
	return bq.NewMultiPhraseQuery(q.positions, q.field)
}

// Searcher implements bq.Query.
func (q *phraseQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		return q.match().Searcher(ctx, r, m, o)
	})
}

func (q *phraseQuery) scorer(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions, boost float32) (search.Searcher, error) {
	rd, err := scoring.ReaderOf(r)
	if err != nil {
		return nil, err
	}
	bm25, err := q.weight(rd, q.times(boost))
	if err != nil || bm25 == nil {
		if err == nil {
			return searcher.NewMatchNoneSearcher(r)
		}
		return nil, err
	}
	norms, err := rd.Norms(q.field)
	if err != nil {
		return nil, err
	}
	inner, err := q.match().Searcher(ctx, r, m, o)
	if err != nil {
		return nil, err
	}
	return &phraseScorer{Searcher: inner, bm25: bm25, positions: len(q.positions), rd: rd, norms: norms}, nil
}

// weight is the phrase's BM25: the idfs of its terms that occur, summed (nil when none
// occurs).
func (q *phraseQuery) weight(rd *scoring.Reader, boost float32) (*scoring.BM25, error) {
	fs, err := rd.FieldStats(q.field)
	if err != nil {
		return nil, err
	}
	var dfs []int64
	for _, terms := range q.positions {
		for _, t := range terms {
			df, err := rd.DocFreq(q.field, []byte(t))
			if err != nil {
				return nil, err
			}
			if df > 0 {
				dfs = append(dfs, df)
			}
		}
	}
	if len(dfs) == 0 {
		return nil, nil
	}
	return scoring.NewBM25(boost, scoring.PhraseIdf(dfs, fs.DocCount), fs.AvgLength(false)), nil
}

// phraseScorer scores the phrase searcher's matches: each match carries one location
// per position for each occurrence of the phrase.
type phraseScorer struct {
	search.Searcher
	bm25      *scoring.BM25
	positions int
	rd        *scoring.Reader
	norms     [][]byte
	hint      int
}

// Next implements search.Searcher.
func (s *phraseScorer) Next(ctx *search.SearchContext) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Next(ctx)
	s.score(dm)
	return dm, err
}

// Advance implements search.Searcher.
func (s *phraseScorer) Advance(ctx *search.SearchContext, id index.IndexInternalID) (*search.DocumentMatch, error) {
	dm, err := s.Searcher.Advance(ctx, id)
	s.score(dm)
	return dm, err
}

func (s *phraseScorer) score(dm *search.DocumentMatch) {
	if dm == nil {
		return
	}
	seg, local := s.rd.Locate(dm.IndexInternalID.Value(), s.hint)
	s.hint = seg
	freq := float32(max(len(dm.FieldTermLocations)/s.positions, 1))
	dm.Score = float64(s.bm25.Score(freq, s.norms[seg][local]))
	dm.FieldTermLocations = dm.FieldTermLocations[:0]
}
