package recommend

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Goes with's fallback, for a product whose own orders list too few: the categories
// most often bought with its category, and their best sellers.
const (
	// TopCategories is how many categories bought with the product's are drawn from.
	TopCategories = 3
	// coBoughtProducts is how many products bought with the category's are weighed.
	coBoughtProducts = 1000
	// bestSellers is how many best sellers of the top categories are kept (per cache entry).
	bestSellers = 200
)

// CategoryField is the field goes with's fallback groups products by: similarWithin, or
// else the first facet field; "" when the index has neither.
func CategoryField(r relevance.Recommendation, facets []string) string {
	if r.SimilarWithin != "" {
		return r.SimilarWithin
	}
	if len(facets) > 0 {
		return facets[0]
	}
	return ""
}

// byCategories lists best sellers of the categories bought with the product's, outside
// its own category and the products listed already.
func (s *Service) byCategories(ctx context.Context, req Request, v catalogView, rec map[string]any, listed []Hit) ([]Hit, error) {
	facets := make([]string, len(req.Settings.FacetFields))
	for i, f := range req.Settings.FacetFields {
		facets[i] = string(f)
	}
	field := CategoryField(relevance.RecommendationsOf(req.Settings), facets)
	values := searchquery.Values(rec, field)
	if field == "" || len(values) == 0 {
		return nil, nil
	}
	key := strings.Join([]string{"categories", v.alias, field, valuesKey(values)}, "\x00")
	ranked, err := s.cached(key, func() ([]scored, error) { return s.bestSellersBoughtWith(ctx, req, v, field, values) })
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{req.ObjectID: true}
	for _, h := range listed {
		skip[h.ObjectID] = true
	}
	var cands []scored
	for _, c := range ranked {
		if !skip[c.id] {
			cands = append(cands, c)
		}
	}
	return s.keep(ctx, v, cands, nonNil(valuesQuery(v.schema, field, values)), ReasonCategories, req.Limit-len(listed))
}

func valuesKey(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

// bestSellersBoughtWith ranks, by their orders, the products of the TopCategories
// categories whose products are most often in the orders of the given category's.
func (s *Service) bestSellersBoughtWith(ctx context.Context, req Request, v catalogView, field string, values []any) ([]scored, error) {
	own, err := s.idsOf(ctx, v.alias, valuesQuery(v.schema, field, values))
	if err != nil || len(own) == 0 {
		return nil, err
	}
	co, err := s.orderCounts(ctx, req, obj{"terms": obj{"products": own}}, nil, coBoughtProducts)
	if err != nil {
		return nil, err
	}
	weights, err := s.categoryWeights(ctx, v, field, co, values)
	if err != nil {
		return nil, err
	}
	top := topCategories(weights, TopCategories)
	if len(top) == 0 {
		return nil, nil
	}
	members, err := s.idsOf(ctx, v.alias, valuesQuery(v.schema, field, top))
	if err != nil || len(members) == 0 {
		return nil, err
	}
	return s.orderCounts(ctx, req, nil, members, bestSellers)
}

// orderCounts counts the counted orders of each product, in the orders matching filter
// (nil: all), of the products in include (nil: all), most ordered first.
func (s *Service) orderCounts(ctx context.Context, req Request, filter any, include []string, size int) ([]scored, error) {
	terms := obj{"field": "products", "size": size}
	if include != nil {
		terms["include"] = include
	}
	body := obj{"size": 0, "track_total_hits": false,
		"query": obj{"bool": obj{"filter": nonNil(events.CountedOrders(s.now()), filter)}},
		"aggs":  obj{"products": obj{"terms": terms}}}
	raw, err := esread.Search(ctx, s.es, req.Index.Orders(), body)
	if err != nil {
		return nil, err
	}
	var ans struct {
		Aggregations struct {
			Products productBuckets `json:"products"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding order counts: %w", err)
	}
	out := make([]scored, len(ans.Aggregations.Products.Buckets))
	for i, b := range ans.Aggregations.Products.Buckets {
		out[i] = scored{id: b.Key, score: float64(b.DocCount)}
	}
	return out, nil
}

// categoryWeights adds up, per category other than the given ones, the orders of its
// products among co.
func (s *Service) categoryWeights(ctx context.Context, v catalogView, field string, co []scored, own []any) (map[string]weighted, error) {
	if len(co) == 0 {
		return nil, nil
	}
	records, err := s.recordsOf(ctx, v.alias, idsOf(co), obj{"includes": []string{field}}, nil, nil)
	if err != nil {
		return nil, err
	}
	skip := map[string]bool{}
	for _, o := range own {
		skip[valuesKey([]any{o})] = true
	}
	out := map[string]weighted{}
	for _, c := range co {
		var rec map[string]any
		if json.Unmarshal(records[c.id], &rec) != nil {
			continue
		}
		for _, val := range searchquery.Values(rec, field) {
			if k := valuesKey([]any{val}); !skip[k] {
				out[k] = weighted{value: val, weight: out[k].weight + c.score}
			}
		}
	}
	return out, nil
}

// weighted is a category value and the orders of its products bought with the given
// category.
type weighted struct {
	value  any
	weight float64
}

// topCategories keeps the n categories of highest weight (ties by value).
func topCategories(w map[string]weighted, n int) []any {
	keys := make([]string, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if w[keys[i]].weight != w[keys[j]].weight {
			return w[keys[i]].weight > w[keys[j]].weight
		}
		return keys[i] < keys[j]
	})
	out := make([]any, 0, n)
	for _, k := range keys[:min(n, len(keys))] {
		out = append(out, w[k].value)
	}
	return out
}
