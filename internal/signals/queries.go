package signals

import (
	"encoding/json"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"time"
)

// The aggregations the refresh reads events with, and their answers. Bucket counts stay
// under Elasticsearch's default search.max_buckets (65,536).

type obj = map[string]any

const (
	// maxPopular bounds the products counted per event type and window.
	maxPopular = 10000
	// MaxReRankedQueries is how many queries (the most clicked) are re-ranked, and
	// maxClickedPerQuery how many records of each (the most clicked).
	MaxReRankedQueries = 200
	maxClickedPerQuery = 25
	// maxTotals bounds the products whose clicks and purchases share purchases out.
	maxTotals = 5000
)

// Retention is how far back events are read: the three months they are kept.
const Retention = 92 * 24 * time.Hour

func terms(field string, size int) obj { return obj{"terms": obj{"field": field, "size": size}} }

func filtered(filter any, field string, size int) obj {
	return obj{"filter": filter, "aggs": obj{"ids": terms(field, size)}}
}

func term(field string, v any) obj { return obj{"term": obj{field: v}} }

var notCancelled = obj{"bool": obj{"must_not": []any{term("cancelled", true)}}}

func since(from, to time.Time) obj {
	return obj{"range": obj{"timestamp": obj{"gte": from.UnixMilli(), "lt": to.UnixMilli(), "format": "epoch_millis"}}}
}

// windowQuery counts the products of one window's events and past orders (searched
// together: event documents never have source past, orders have no type).
func windowQuery(w Window, now time.Time) obj {
	day := 24 * time.Hour
	from, to := now.Add(-time.Duration(w.To*float64(day))), now.Add(-time.Duration(w.From*float64(day)))
	if w.From == 0 {
		// Events stamped by a clock a little ahead of the operator's are young too.
		to = now.Add(time.Hour)
	}
	purchase := obj{"bool": obj{"filter": []any{term("type", "purchase")}, "must_not": []any{term("cancelled", true)}}}
	past := obj{"bool": obj{"filter": []any{term("source", "past")}, "must_not": []any{term("cancelled", true)}}}
	return obj{"size": 0, "query": since(from, to), "aggs": obj{
		"view":      filtered(term("type", "view"), indexmapping.ObjectIDField, maxPopular),
		"click":     filtered(term("type", "click"), indexmapping.ObjectIDField, maxPopular),
		"addToCart": filtered(term("type", "addToCart"), "items."+indexmapping.ObjectIDField, maxPopular),
		"purchase":  filtered(purchase, "items."+indexmapping.ObjectIDField, maxPopular),
		"past":      filtered(past, "products", maxPopular),
	}}
}

type bucket struct {
	Key      any   `json:"key"`
	DocCount int64 `json:"doc_count"`
}

type idsAgg struct {
	IDs struct {
		Buckets []bucket `json:"buckets"`
	} `json:"ids"`
}

func (a idsAgg) counts() map[string]int64 {
	out := make(map[string]int64, len(a.IDs.Buckets))
	for _, b := range a.IDs.Buckets {
		out[fmt.Sprint(b.Key)] += b.DocCount
	}
	return out
}

// parseWindow reads windowQuery's answer.
func parseWindow(raw []byte) (Counts, error) {
	var ans struct {
		Aggs map[string]idsAgg `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return Counts{}, fmt.Errorf("decoding popularity counts: %w", err)
	}
	c := Counts{View: ans.Aggs["view"].counts(), Click: ans.Aggs["click"].counts(),
		AddToCart: ans.Aggs["addToCart"].counts(), Purchase: ans.Aggs["purchase"].counts()}
	for id, n := range ans.Aggs["past"].counts() {
		c.Purchase[id] += n
	}
	return c, nil
}

// clicksQuery counts the clicks of the most clicked queries per record and position
// range, and every product's clicks and purchases.
func clicksQuery(now time.Time) obj {
	var ranges []any
	for _, r := range positionRanges {
		rg := obj{"from": r.from}
		if r.to > 0 {
			rg["to"] = r.to
		}
		ranges = append(ranges, rg)
	}
	searchClick := obj{"bool": obj{"filter": []any{term("type", "click"), obj{"exists": obj{"field": "query"}}}}}
	byQuery := terms("query", MaxReRankedQueries)
	perRecord := terms(indexmapping.ObjectIDField, maxClickedPerQuery)
	perRecord["aggs"] = obj{"p": obj{"range": obj{"field": "position", "ranges": ranges}}}
	byQuery["aggs"] = obj{"o": perRecord}
	purchase := obj{"bool": obj{"filter": []any{term("type", "purchase")}, "must_not": []any{term("cancelled", true)}}}
	return obj{"size": 0, "query": since(now.Add(-Retention), now.Add(time.Minute)), "aggs": obj{
		"searched": obj{"filter": searchClick, "aggs": obj{"q": byQuery}},
		"click":    filtered(term("type", "click"), indexmapping.ObjectIDField, maxTotals),
		"bought":   filtered(purchase, "items."+indexmapping.ObjectIDField, maxTotals),
	}}
}

// parseClicks reads clicksQuery's answer.
func parseClicks(raw []byte) ([]QueryClicks, Totals, error) {
	var ans struct {
		Aggs struct {
			Searched struct {
				Q struct {
					Buckets []struct {
						bucket
						O struct {
							Buckets []struct {
								bucket
								P struct {
									Buckets []bucket `json:"buckets"`
								} `json:"p"`
							} `json:"buckets"`
						} `json:"o"`
					} `json:"buckets"`
				} `json:"q"`
			} `json:"searched"`
			Click  idsAgg `json:"click"`
			Bought idsAgg `json:"bought"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, Totals{}, fmt.Errorf("decoding click counts: %w", err)
	}
	var out []QueryClicks
	for _, qb := range ans.Aggs.Searched.Q.Buckets {
		q := QueryClicks{Query: fmt.Sprint(qb.Key), Clicks: map[string][]int64{}}
		for _, ob := range qb.O.Buckets {
			byRange := make([]int64, len(positionRanges))
			for i, pb := range ob.P.Buckets {
				if i < len(byRange) {
					byRange[i] = pb.DocCount
				}
			}
			q.Clicks[fmt.Sprint(ob.Key)] = byRange
		}
		out = append(out, q)
	}
	return out, Totals{Clicks: ans.Aggs.Click.counts(), Bought: ans.Aggs.Bought.counts()}, nil
}
