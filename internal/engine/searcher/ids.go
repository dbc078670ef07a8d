package searcher

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/store"
)

// MatchingIDs returns ids (per index) of refreshed documents matching q, up to max.
func MatchingIDs(ctx context.Context, ix *store.Index, q bq.Query, max int) ([]string, error) {
	var ids []string
	var after []string
	for len(ids) < max {
		size := 1000
		if max-len(ids) < size {
			size = max - len(ids)
		}
		req := bleve.NewSearchRequestOptions(q, size, 0, false)
		req.SortBy([]string{"_id"})
		req.Score = bleve.ScoreNone // the ids are all that is read
		if after != nil {
			req.SearchAfter = after
		}
		res, err := ix.Bleve().SearchInContext(ctx, req)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		if len(res.Hits) < size {
			break
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
	return ids, nil
}

// Count returns the number of documents matching a query.
func Count(ctx context.Context, indices []*store.Index, raw any) (uint64, error) {
	if len(indices) == 0 {
		return 0, nil
	}
	q, _, err := BuildQuery(indices, raw)
	if err != nil {
		return 0, err
	}
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	req.Score = bleve.ScoreNone // a count reads no score
	res, err := Searchable(indices).SearchInContext(ctx, req)
	if err != nil {
		return 0, err
	}
	return res.Total, nil
}
