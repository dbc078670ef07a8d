package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// phraseQuery is Lucene's PhraseQuery (one term per position) or MultiPhraseQuery (a
// position holding several terms: synonyms, or the prefix's expansions of
// match_phrase_prefix), with its slop: scoring.PhraseSearcher finds the occurrences, and
// a document scores BM25 with the phrase's frequency there (its exact occurrences, or
// the sum of 1 / (1 + match length) over its sloppy matches) and the idfs of all the
// terms summed, as Lucene does.
type phraseQuery struct {
	boosted
	field     string
	positions []scoring.PhrasePosition
	slop      int
}

func newPhraseQuery(field string, positions []scoring.PhrasePosition, slop int) *phraseQuery {
	return &phraseQuery{boosted: unboosted(), field: field, positions: positions, slop: slop}
}

// Searcher implements bq.Query.
func (q *phraseQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		return scoring.NewPhraseSearcher(ctx, r, q.field, q.positions, q.slop, false)
	})
}

func (q *phraseQuery) scorer(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, _ search.SearcherOptions, boost float32) (search.Searcher, error) {
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
	inner, err := scoring.NewPhraseSearcher(ctx, r, q.field, q.positions, q.slop, true)
	if err != nil {
		return nil, err
	}
	return &phraseScorer{Searcher: inner, bm25: bm25, rd: rd, norms: norms}, nil
}

// weight is the phrase's BM25: the idfs of its terms that occur, summed (nil when none
// occurs).
func (q *phraseQuery) weight(rd *scoring.Reader, boost float32) (*scoring.BM25, error) {
	var dfs []int64
	for _, p := range q.positions {
		for _, t := range p.Terms {
			df, err := rd.DocFreq(q.field, []byte(t))
			if err != nil {
				return nil, err
			}
			dfs = append(dfs, df)
		}
	}
	return q.weightOf(rd, dfs, boost)
}

// weightOf is the phrase's BM25 from its terms' document frequencies, in the order of
// its positions and their terms.
func (q *phraseQuery) weightOf(rd *scoring.Reader, dfs []int64, boost float32) (*scoring.BM25, error) {
	var held []int64
	for _, df := range dfs {
		if df > 0 {
			held = append(held, df)
		}
	}
	if len(held) == 0 {
		return nil, nil
	}
	fs, err := rd.FieldStats(q.field)
	if err != nil {
		return nil, err
	}
	return scoring.NewBM25(boost, scoring.PhraseIdf(held, fs.DocCount), fs.AvgLength(false)), nil
}

// phraseScorer turns the phrase searcher's frequencies into BM25 scores.
type phraseScorer struct {
	search.Searcher
	bm25  *scoring.BM25
	rd    *scoring.Reader
	norms [][]byte
	hint  int
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
	dm.Score = float64(s.bm25.Score(float32(dm.Score), s.norms[seg][local]))
}
