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

// togetherQuery counts, among the orders that count and are not cancelled within the
// window, those holding the product and the products they hold. The product itself is
// one of the buckets (and left out when shaping); size leaves room for products that
// are no longer in the catalog.
func togetherQuery(objectID string, limit int, now time.Time) obj {
	return obj{
		"size": 0, "track_total_hits": true,
		"query": obj{"bool": obj{
			"filter": []any{
				termQ("counts", true),
				obj{"range": obj{"timestamp": obj{"gte": now.Add(-OrderWindow).UnixMilli()}}},
			},
			"must_not": []any{termQ("cancelled", true)},
		}},
		"aggs": obj{"with": filtered(termQ("products", objectID), obj{
			"products": terms("products", 3*limit+20, nil),
		})},
	}
}

type togetherAnswer struct {
	totalHits
	Aggregations struct {
		With filterAgg `json:"with"`
	} `json:"aggregations"`
}

// rankTogether reads the answer of togetherQuery: the orders holding the product and
// the candidates, best first (the engine's order: shared orders, then objectID), each
// shared by at least minShared orders.
func rankTogether(objectID string, raw []byte) (TogetherList, error) {
	var ans togetherAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return TogetherList{}, fmt.Errorf("decoding the Bought together answer: %w", err)
	}
	with := ans.Aggregations.With
	minShared := int64(2)
	if ans.Hits.Total.Value < FewOrders {
		minShared = 1
	}
	out := TogetherList{ObjectID: objectID, Orders: with.DocCount, Hits: []TogetherHit{}}
	for _, b := range with.Products.Buckets {
		id := b.str()
		if id == objectID || b.DocCount < minShared {
			continue
		}
		out.Hits = append(out.Hits, TogetherHit{
			ObjectID: id, SharedOrders: b.DocCount,
			Confidence: float64(b.DocCount) / float64(with.DocCount),
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
	raw, err := r.search(ctx, idx.Orders(), togetherQuery(req.ObjectID, req.Limit, r.now()))
	if err != nil {
		return TogetherList{}, err
	}
	list, err := rankTogether(req.ObjectID, raw)
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
