package recommend

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"sort"
	"strings"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Trending compares a product's weighted events of the last RecentDays with those of
// the PastDays before: score = (recent/7 + α) / (past/28 + α), daily rates smoothed by
// α = TrendSmoothing weighted events a day, so that a product new to the shop does not
// divide by zero and a handful of events moves the ratio little.
const (
	RecentDays     = 7
	PastDays       = 28
	TrendSmoothing = 1.0
	// MinRecentEvents is how many events (of types weighing more than 0) a product needs
	// in the last RecentDays to trend: one stray view does not.
	MinRecentEvents = 3
	// trendingCandidates is how many products of each event type are read, by their
	// events of the last RecentDays; trendingKept how many of them are ranked and kept.
	trendingCandidates = 500
	trendingKept       = 200
)

// trendScore is the rise of a product's weighted events.
func trendScore(recent, past float64) float64 {
	return (recent/RecentDays + TrendSmoothing) / (past/PastDays + TrendSmoothing)
}

// eventTypes are the types trending weighs, with the field naming their products.
var eventTypes = []struct {
	typ   events.Type
	field string
}{{events.View, indexmapping.ObjectIDField}, {events.Click, indexmapping.ObjectIDField}, {events.AddToCart, "items." + indexmapping.ObjectIDField}, {events.Purchase, "items." + indexmapping.ObjectIDField}}

func weightOf(w relevance.Weights, t events.Type) int {
	switch t {
	case events.View:
		return w.View
	case events.Click:
		return w.Click
	case events.AddToCart:
		return w.AddToCart
	}
	return w.Purchase
}

// trendingQuery counts, per event type, the events naming each product in [from, to)
// (no end when to is zero), cancelled purchases left out; include (nil: all) limits the
// products counted.
func trendingQuery(from, to time.Time, include []string, size int) obj {
	aggs := obj{}
	for _, et := range eventTypes {
		terms := obj{"field": et.field, "size": size}
		if include != nil {
			terms["include"] = include
		}
		aggs[string(et.typ)] = obj{"filter": obj{"term": obj{"type": string(et.typ)}}, "aggs": obj{"products": obj{"terms": terms}}}
	}
	window := obj{"gte": from.UnixMilli()}
	if !to.IsZero() {
		window["lt"] = to.UnixMilli()
	}
	return obj{"size": 0, "track_total_hits": false, "aggs": aggs,
		"query": obj{"bool": obj{"filter": []any{obj{"range": obj{"timestamp": window}}},
			"must_not": []any{obj{"term": obj{"cancelled": true}}}}}}
}

// typeCounts are events per type and product.
type typeCounts map[events.Type]map[string]int64

func parseTypeCounts(raw []byte) (typeCounts, error) {
	var ans struct {
		Aggregations map[string]struct {
			Products productBuckets `json:"products"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding event counts: %w", err)
	}
	out := typeCounts{}
	for _, et := range eventTypes {
		out[et.typ] = map[string]int64{}
		for _, b := range ans.Aggregations[string(et.typ)].Products.Buckets {
			out[et.typ][b.Key] = b.DocCount
		}
	}
	return out, nil
}

// volume is a product's weighted events, and how many events of types weighing more
// than 0 it has.
func (c typeCounts) volume(id string, w relevance.Weights) (weighted float64, n int64) {
	for _, et := range eventTypes {
		if k := weightOf(w, et.typ); k > 0 {
			weighted += float64(k) * float64(c[et.typ][id])
			n += c[et.typ][id]
		}
	}
	return weighted, n
}

// candidates are the products with MinRecentEvents events in recent.
func (c typeCounts) candidates(w relevance.Weights) []string {
	seen := map[string]bool{}
	var out []string
	for _, et := range eventTypes {
		for id := range c[et.typ] {
			if _, n := c.volume(id, w); !seen[id] && n >= MinRecentEvents {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	sort.Strings(out)
	return out
}

// rankTrend orders the candidates by trendScore, then by recent volume, then by ID.
func rankTrend(recent, past typeCounts, cands []string, w relevance.Weights) []scored {
	type ranked struct {
		scored
		volume float64
	}
	all := make([]ranked, len(cands))
	for i, id := range cands {
		r, _ := recent.volume(id, w)
		p, _ := past.volume(id, w)
		all[i] = ranked{scored{id: id, score: trendScore(r, p)}, r}
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.score != b.score {
			return a.score > b.score
		}
		if a.volume != b.volume {
			return a.volume > b.volume
		}
		return a.id < b.id
	})
	out := make([]scored, 0, min(len(all), trendingKept))
	for _, r := range all[:min(len(all), trendingKept)] {
		out = append(out, r.scored)
	}
	return out
}

// Trending lists the products whose weighted events rose most, in the facet value
// req.Field = req.Value when given.
func (s *Service) Trending(ctx context.Context, req Request) (List, error) {
	list := List{Hits: []Hit{}}
	v, err := s.view(ctx, req)
	if err != nil {
		return List{}, err
	}
	var category any
	if req.Field != "" {
		if category, err = searchquery.FacetFilter(req.Field, req.Value, req.Access, v.schema); err != nil {
			return List{}, badSearchParameter(err)
		}
		v.filters = append(v.filters, category)
	}
	w := relevance.RecommendationsOf(req.Settings).Weights
	key := strings.Join([]string{"trending", v.alias, req.Field, req.Value, fmt.Sprint(w)}, "\x00")
	ranked, err := s.cached(key, func() ([]scored, error) { return s.rankTrending(ctx, req.Index, v.alias, category, w) })
	if err != nil {
		return List{}, err
	}
	hits, err := s.keep(ctx, v, ranked, nil, ReasonTrending, req.Limit)
	list.Hits = append(list.Hits, hits...)
	return list, err
}

// rankTrending reads the events of the last RecentDays+PastDays days in two passes: the
// products with the most events of each type lately, then the earlier events of those.
// In a category, the category's products are read from the catalog first and the events
// counted for them alone: taking the shop's top products first and keeping those of the
// category would miss a small category's rising products, which rarely rank in the
// whole shop's top.
func (s *Service) rankTrending(ctx context.Context, idx esnames.Index, alias string, category any, w relevance.Weights) ([]scored, error) {
	var members []string
	if category != nil {
		var err error
		if members, err = s.idsOf(ctx, alias, category); err != nil || len(members) == 0 {
			return nil, err
		}
	}
	now := s.now()
	split, start := now.Add(-RecentDays*24*time.Hour), now.Add(-(RecentDays+PastDays)*24*time.Hour)
	indices := strings.Join(events.EventIndices(idx, start, now.Add(24*time.Hour)), ",")
	raw, err := esread.Search(ctx, s.es, indices, trendingQuery(split, time.Time{}, members, trendingCandidates))
	if err != nil {
		return nil, err
	}
	recent, err := parseTypeCounts(raw)
	if err != nil {
		return nil, err
	}
	cands := recent.candidates(w)
	if len(cands) == 0 {
		return nil, nil
	}
	if raw, err = esread.Search(ctx, s.es, indices, trendingQuery(start, split, cands, len(cands))); err != nil {
		return nil, err
	}
	past, err := parseTypeCounts(raw)
	if err != nil {
		return nil, err
	}
	return rankTrend(recent, past, cands, w), nil
}
