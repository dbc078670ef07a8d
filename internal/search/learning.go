package search

import (
	"context"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// How a search uses what shoppers' events taught (internal/signals): customRanking's
// _popularity becomes terms lookups in the index's signals index, once that exists
// (the operator creates it with the first refresh); with reRanking on, a first page
// without a request sort is reordered by the query's scores. Both are read through the
// signals reader's caches, so a search waits for neither.

// learned is what a search takes from the signals: the signals index to look
// popularity up in ("" for none), and the query's re-ranking, which go into its spec.
type learned struct {
	signals string
	rerank  searchquery.ReRanking
}

// learn reads what req needs of the signals of the index behind alias. q is the query
// as sent, before rules rewrite it: clicks carry that one.
func (s *Service) learn(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request) (learned, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok {
		return learned{}, nil
	}
	var l learned
	if relevance.RanksByPopularity(access.Settings) {
		ready, err := s.signals.Ready(ctx, names)
		if err != nil {
			return learned{}, err
		}
		if ready {
			l.signals = names.Signals()
		}
	}
	rr := relevance.ReRankOf(access.Settings)
	query := events.NormalizeQuery(req.Q)
	if !rr.Enabled || req.Offset > 0 || len(req.Sort) > 0 || query == "" {
		return l, nil
	}
	scores, err := s.signals.ReRankScores(ctx, names, query)
	if err != nil {
		return learned{}, err
	}
	l.rerank = searchquery.ReRanking{Scores: scores, Strength: rr.Strength}
	return l, nil
}
