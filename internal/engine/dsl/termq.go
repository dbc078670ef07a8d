package dsl

import (
	"context"

	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/scoring"
)

// termQuery is Lucene's TermQuery on a text, keyword or boolean field: BM25, with
// frequencies and length norms on text fields only, as Elasticsearch indexes them.
type termQuery struct {
	boosted
	t scoring.Term
}

func newTermQuery(field, term string, text bool) *termQuery {
	return &termQuery{boosted: unboosted(), t: scoring.Term{Field: field, Term: []byte(term), Text: text}}
}

// Searcher implements bq.Query.
func (q *termQuery) Searcher(ctx context.Context, r index.IndexReader, m mapping.IndexMapping, o search.SearcherOptions) (search.Searcher, error) {
	return searcherOf(ctx, q, r, m, o, func() (search.Searcher, error) {
		return searcher.NewTermSearcherBytes(ctx, r, q.t.Term, q.t.Field, 1, o)
	})
}

func (q *termQuery) scorer(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, _ search.SearcherOptions, boost float32) (search.Searcher, error) {
	rd, err := scoring.ReaderOf(r)
	if err != nil {
		return nil, err
	}
	st, err := q.t.Stats(rd)
	if err != nil {
		return nil, err
	}
	if st.DocFreq == 0 {
		return searcher.NewMatchNoneSearcher(r)
	}
	return scoring.NewTermSearcher(ctx, r, q.t, q.t.Weight(st, q.times(boost)))
}
