package recommend

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// goesWithCandidates is how many products bought with the given one are read, for limit
// of them to remain once those in its similarWithin values, those the filters refuse and
// those no longer in the catalog are left out.
func goesWithCandidates(limit int) int { return 5*limit + 50 }

// goesWithQuery finds the products of the counted orders holding id that are bought with
// it more than their popularity explains: significant_terms with the percentage
// heuristic scores a product by the share of its orders that hold id, which for a given
// id is its lift (shared orders × all orders / (id's orders × its orders)) times a
// constant. Products sharing fewer than minShared orders are left out.
func goesWithQuery(id string, minShared, size int, now time.Time) obj {
	return obj{"size": 0, "track_total_hits": false,
		"query": obj{"bool": obj{"filter": []any{events.CountedOrders(now), obj{"term": obj{"products": id}}}}},
		"aggs": obj{"goesWith": obj{"significant_terms": obj{"field": "products", "percentage": obj{},
			"min_doc_count": minShared, "size": size, "exclude": []string{id}}}}}
}

type sigAnswer struct {
	Aggregations struct {
		GoesWith struct {
			DocCount int64 `json:"doc_count"`
			BgCount  int64 `json:"bg_count"`
			Buckets  []struct {
				Key      string `json:"key"`
				DocCount int64  `json:"doc_count"`
				BgCount  int64  `json:"bg_count"`
			} `json:"buckets"`
		} `json:"goesWith"`
	} `json:"aggregations"`
}

// rankGoesWith reads goesWithQuery's answer: the candidates by lift, highest first (the
// aggregation's order).
func rankGoesWith(raw []byte) ([]scored, error) {
	var ans sigAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding the goes-with answer: %w", err)
	}
	g := ans.Aggregations.GoesWith
	out := make([]scored, 0, len(g.Buckets))
	for _, b := range g.Buckets {
		out = append(out, scored{id: b.Key, score: lift(b.DocCount, g.DocCount, b.BgCount, g.BgCount)})
	}
	return out, nil
}

// lift is how many times more often a product is in the given one's orders than in all
// orders: (shared / orders of the given one) / (its orders / all orders).
func lift(shared, given, its, all int64) float64 {
	if given == 0 || its == 0 || all == 0 {
		return 0
	}
	return (float64(shared) / float64(given)) / (float64(its) / float64(all))
}

// GoesWith lists the products bought with req.ObjectID outside its similarWithin values,
// filled up from the categories bought with its own when its orders list too few; an
// unknown product has an empty list.
func (s *Service) GoesWith(ctx context.Context, req Request) (List, error) {
	list := List{ObjectID: req.ObjectID, Hits: []Hit{}}
	settings := relevance.RecommendationsOf(req.Settings)
	var v catalogView
	var rec map[string]any
	var found bool
	var cands []scored
	// The product's record and its orders are read at once: neither needs the other.
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		v, rec, found, err = s.product(gctx, req)
		return err
	})
	g.Go(func() error {
		body := goesWithQuery(req.ObjectID, settings.MinSharedOrders, goesWithCandidates(req.Limit), s.now())
		raw, err := esread.Search(gctx, s.es, req.Index.Orders(), body)
		if err != nil {
			return err
		}
		cands, err = rankGoesWith(raw)
		return err
	})
	if err := g.Wait(); err != nil || !found {
		return list, err
	}
	own := valuesQuery(v.schema, settings.SimilarWithin, searchquery.Values(rec, settings.SimilarWithin))
	hits, err := s.complements(ctx, req, v, rec, cands, nonNil(own))
	if err != nil {
		return List{}, err
	}
	list.Hits = append(list.Hits, hits...)
	return list, nil
}

// complements keeps the candidates the catalog holds outside the product's own values,
// filled up from the categories bought with its own. With fewer candidates than the list
// asks for, the fill is certain to be needed: both reads then run at once, the fill
// skipping every candidate (those the catalog drops, it would drop too).
func (s *Service) complements(ctx context.Context, req Request, v catalogView, rec map[string]any, cands []scored, own []any) ([]Hit, error) {
	if len(cands) >= req.Limit {
		hits, err := s.keep(ctx, v, cands, own, ReasonOrders, req.Limit)
		if err != nil || len(hits) >= req.Limit {
			return hits, err
		}
		more, err := s.byCategories(ctx, req, v, rec, hits)
		return append(hits, more...), err
	}
	var hits, more []Hit
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		hits, err = s.keep(gctx, v, cands, own, ReasonOrders, req.Limit)
		return err
	})
	g.Go(func() (err error) {
		more, err = s.byCategories(gctx, req, v, rec, candidateHits(cands))
		return err
	})
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return append(hits, more[:min(len(more), req.Limit-len(hits))]...), nil
}

// candidateHits are the candidates as listed hits, for byCategories to skip.
func candidateHits(cands []scored) []Hit {
	out := make([]Hit, len(cands))
	for i, c := range cands {
		out[i] = Hit{ObjectID: c.id}
	}
	return out
}

// nonNil is the queries that are not nil.
func nonNil(qs ...any) []any {
	var out []any
	for _, q := range qs {
		if q != nil {
			out = append(out, q)
		}
	}
	return out
}
