package events

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
)

const (
	// OrderWindow is how far back orders count for Bought together (and how long they
	// are kept).
	OrderWindow = 400 * 24 * time.Hour
	// DefaultTogetherLimit is how many products Bought together lists when not asked.
	DefaultTogetherLimit = 10
	// MaxTogetherLimit is the most products a keyed request may ask for.
	MaxTogetherLimit = 100
	// FewOrders is the count of counted orders under which one shared order is enough
	// to list a product; from it on, two are needed, so that a single basket does not
	// make a list.
	FewOrders = 100
)

// TogetherRequest asks for the Bought together list of a product.
type TogetherRequest struct {
	ObjectID string
	Limit    int
	// Fields limits the record fields returned (the public policy's retrievable
	// fields); empty returns whole records.
	Fields []string
}

// countedOrders selects the orders that count and are not cancelled within the window.
func countedOrders(now time.Time) []any {
	return []any{
		termQ("counts", true),
		obj{"range": obj{"timestamp": obj{"gte": now.Add(-OrderWindow).UnixMilli()}}},
	}
}

func notCancelled() []any { return []any{termQ("cancelled", true)} }

// CountedOrders is the query of the orders that count for lists built from orders at
// now: counted and not cancelled, within the window.
func CountedOrders(now time.Time) map[string]any {
	return obj{"bool": obj{"filter": countedOrders(now), "must_not": notCancelled()}}
}

// togetherQuery counts the counted orders holding the product and the products they
// hold, in one pass over those orders. The product itself is one of the buckets (and
// left out when ranking); size leaves room for products no longer in the catalog.
func togetherQuery(objectID string, limit int, now time.Time) obj {
	return obj{
		"size": 0, "track_total_hits": true,
		"query": obj{"bool": obj{
			"filter":   append(countedOrders(now), termQ("products", objectID)),
			"must_not": notCancelled(),
		}},
		"aggs": obj{"products": terms("products", 3*limit+20, nil)},
	}
}

// allOrdersQuery counts the counted orders of the window, for the minimum of shared
// orders.
func allOrdersQuery(now time.Time) obj {
	return obj{"size": 0, "track_total_hits": true, "query": CountedOrders(now)}
}

type togetherAnswer struct {
	totalHits
	Aggregations struct {
		Products bucketList `json:"products"`
	} `json:"aggregations"`
}

// minShared is how many orders a product must share with the given one to be listed,
// given the counted orders of the window.
func minShared(orders int64) int64 {
	if orders < FewOrders {
		return 1
	}
	return 2
}

// rankTogether reads the answer of togetherQuery: the orders holding the product and
// the candidates, best first (the engine's order: shared orders, then objectID), each
// shared by at least least orders.
func rankTogether(objectID string, raw []byte, least int64) (TogetherList, error) {
	var ans togetherAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return TogetherList{}, fmt.Errorf("decoding the Bought together answer: %w", err)
	}
	orders := ans.Hits.Total.Value
	out := TogetherList{ObjectID: objectID, Orders: orders, Hits: []TogetherHit{}}
	for _, b := range ans.Aggregations.Products.Buckets {
		id := b.str()
		if id == objectID || b.DocCount < least {
			continue
		}
		out.Hits = append(out.Hits, TogetherHit{
			ObjectID: id, SharedOrders: b.DocCount,
			Confidence: float64(b.DocCount) / float64(orders),
		})
	}
	return out, nil
}

// keepInCatalog keeps the first limit candidates that are still in the catalog, with
// their records.
func (l *TogetherList) keepInCatalog(records map[string]json.RawMessage, limit int) {
	kept := l.Hits[:0]
	for _, h := range l.Hits {
		if r, ok := records[h.ObjectID]; ok && len(kept) < limit {
			h.Record = r
			kept = append(kept, h)
		}
	}
	l.Hits = kept
}

// Together returns the Bought together list of a product of idx. An unknown product
// has an empty list.
func (r *Reader) Together(ctx context.Context, idx esnames.Index, req TogetherRequest) (TogetherList, error) {
	now := r.now()
	all, err := r.countedOrders(ctx, idx, now)
	if err != nil {
		return TogetherList{}, err
	}
	raw, err := r.search(ctx, idx.Orders(), togetherQuery(req.ObjectID, req.Limit, now))
	if err != nil {
		return TogetherList{}, err
	}
	list, err := rankTogether(req.ObjectID, raw, minShared(all))
	if err != nil {
		return TogetherList{}, err
	}
	ids := make([]string, len(list.Hits))
	for i, h := range list.Hits {
		ids[i] = h.ObjectID
	}
	records, err := r.records(ctx, idx.Alias(), ids, req.Fields)
	if err != nil {
		return TogetherList{}, err
	}
	list.keepInCatalog(records, req.Limit)
	return list, nil
}

// countedOrders is how many orders of idx count within the window, computed at most
// StatsTTL ago: it only decides whether one shared order is enough, and counting every
// order on each request would cost more than the list itself.
func (r *Reader) countedOrders(ctx context.Context, idx esnames.Index, now time.Time) (int64, error) {
	if n, ok := r.orderCounts.Get(idx.Stem()); ok {
		return n, nil
	}
	raw, err := r.search(ctx, idx.Orders(), allOrdersQuery(now))
	if err != nil {
		return 0, err
	}
	var ans totalHits
	if err := json.Unmarshal(raw, &ans); err != nil {
		return 0, fmt.Errorf("decoding the order count: %w", err)
	}
	r.orderCounts.Add(idx.Stem(), ans.Hits.Total.Value)
	return ans.Hits.Total.Value, nil
}
