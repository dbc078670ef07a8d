package events

import (
	"encoding/json"
	"fmt"
	"github.com/aislehq/aisle/internal/indexmapping"
	"sort"
	"strconv"
	"time"
)

// TopSize is how many products, queries and values each top list of the stats holds.
const TopSize = 10

// Labels of events whose field is empty in the lists of the stats.
const (
	searchList = "search" // a click on a search result, not on a list
	serverSide = "server" // device and site of server events
)

type obj = map[string]any

func terms(field string, size int, extra obj) obj {
	t := obj{"field": field, "size": size}
	for k, v := range extra {
		t[k] = v
	}
	return obj{"terms": t}
}

func termQ(field string, v any) obj { return obj{"term": obj{field: v}} }

func filtered(q obj, aggs obj) obj { return obj{"filter": q, "aggs": aggs} }

func sum(field string) obj { return obj{"sum": obj{"field": field}} }

// inPeriod selects documents whose timestamp lies in p.
func inPeriod(p Period) obj {
	return obj{"range": obj{"timestamp": obj{"gte": p.Start().UnixMilli(), "lt": p.End().UnixMilli()}}}
}

// statsQuery is the one search over the period's event indices. Counted events leave
// out notRecorded documents and cancelled purchases. The daily series sits under each
// type (a handful of buckets) rather than the type under each day (up to 400), as every
// bucket's sub-aggregations cost the engine a pass.
func statsQuery(p Period) obj {
	counted := obj{"bool": obj{"must_not": []any{termQ("type", string(NotRecorded)), termQ("cancelled", true)}}}
	daily := obj{"date_histogram": obj{"field": "timestamp", "calendar_interval": "day", "min_doc_count": 1}}
	return obj{
		"size": 0, "track_total_hits": false, "query": inPeriod(p),
		"aggs": obj{
			"dropped": filtered(termQ("type", string(NotRecorded)), obj{
				"events":  sum("count"),
				"reasons": withAggs(terms("reason", 100, nil), obj{"events": sum("count")}),
			}),
			"counted": filtered(counted, obj{
				"types":     withAggs(terms("type", 10, nil), obj{"daily": daily}),
				"views":     filtered(termQ("type", string(View)), obj{"products": terms(indexmapping.ObjectIDField, TopSize, nil)}),
				"clicks":    filtered(termQ("type", string(Click)), clickAggs()),
				"carts":     filtered(termQ("type", string(AddToCart)), obj{"products": terms("items."+indexmapping.ObjectIDField, TopSize, nil)}),
				"purchases": filtered(termQ("type", string(Purchase)), purchaseAggs()),
				"countries": terms("country", 300, obj{"missing": ""}),
				"devices":   terms("device", 10, obj{"missing": serverSide}),
				"sites":     terms("site", 100, obj{"missing": serverSide}),
			}),
		},
	}
}

func withAggs(agg obj, subs obj) obj {
	agg["aggs"] = subs
	return agg
}

func clickAggs() obj {
	return obj{
		"products":  terms(indexmapping.ObjectIDField, TopSize, nil),
		"queries":   terms("query", TopSize, nil),
		"lists":     withAggs(terms("list", len(Lists)+1, obj{"missing": searchList}), obj{"products": terms(indexmapping.ObjectIDField, TopSize, nil)}),
		"positions": terms("position", 1000, obj{"order": obj{"_key": "asc"}}),
	}
}

func purchaseAggs() obj {
	return obj{
		"products":   terms("items."+indexmapping.ObjectIDField, TopSize, nil),
		"currencies": withAggs(terms("currency", 200, nil), obj{"revenue": sum("revenue")}),
	}
}

// ordersQuery counts the orders placed in the period and those of them cancelled.
func ordersQuery(p Period) obj {
	return obj{
		"size": 0, "track_total_hits": true, "query": inPeriod(p),
		"aggs": obj{"cancelled": obj{"filter": termQ("cancelled", true)}},
	}
}

// bucket is a bucket of any aggregation of statsQuery; the named sub-aggregations are
// there when the query asked for them.
type bucket struct {
	Key      json.RawMessage `json:"key"`
	DocCount int64           `json:"doc_count"`
	Events   *metric         `json:"events"`
	Revenue  *metric         `json:"revenue"`
	Daily    *bucketList     `json:"daily"`
	Products *bucketList     `json:"products"`
}

type metric struct {
	Value float64 `json:"value"`
}

type bucketList struct {
	Buckets []bucket `json:"buckets"`
}

// filterAgg is a filter aggregation with the sub-aggregations statsQuery gives them.
type filterAgg struct {
	DocCount   int64      `json:"doc_count"`
	Events     metric     `json:"events"`
	Reasons    bucketList `json:"reasons"`
	Products   bucketList `json:"products"`
	Queries    bucketList `json:"queries"`
	Lists      bucketList `json:"lists"`
	Positions  bucketList `json:"positions"`
	Currencies bucketList `json:"currencies"`
}

type countedAgg struct {
	Types     bucketList `json:"types"`
	Views     filterAgg  `json:"views"`
	Clicks    filterAgg  `json:"clicks"`
	Carts     filterAgg  `json:"carts"`
	Purchases filterAgg  `json:"purchases"`
	Countries bucketList `json:"countries"`
	Devices   bucketList `json:"devices"`
	Sites     bucketList `json:"sites"`
}

type statsAnswer struct {
	Aggregations struct {
		Dropped filterAgg  `json:"dropped"`
		Counted countedAgg `json:"counted"`
	} `json:"aggregations"`
}

// totalHits is the hit count of an answer asked with track_total_hits.
type totalHits struct {
	Hits struct {
		Total struct {
			Value int64 `json:"value"`
		} `json:"total"`
	} `json:"hits"`
}

type ordersAnswer struct {
	totalHits
	Aggregations struct {
		Cancelled struct {
			DocCount int64 `json:"doc_count"`
		} `json:"cancelled"`
	} `json:"aggregations"`
}

func (b bucket) str() string {
	var s string
	if json.Unmarshal(b.Key, &s) == nil {
		return s
	}
	return string(b.Key)
}

func (b bucket) int() int64 {
	n, _ := strconv.ParseInt(string(b.Key), 10, 64)
	if n == 0 {
		f, _ := strconv.ParseFloat(string(b.Key), 64)
		n = int64(f)
	}
	return n
}

// shapeStats turns the two answers into the Stats body; records are filled later.
func shapeStats(p Period, raw, orders []byte) (Stats, error) {
	var ans statsAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return Stats{}, fmt.Errorf("decoding the stats answer: %w", err)
	}
	var ord ordersAnswer
	if err := json.Unmarshal(orders, &ord); err != nil {
		return Stats{}, fmt.Errorf("decoding the order counts: %w", err)
	}
	c := ans.Aggregations.Counted
	s := Stats{
		From: p.From.Format(dateLayout), To: p.To.Format(dateLayout),
		NotRecorded:     notRecorded(ans.Aggregations.Dropped),
		Orders:          ord.Hits.Total.Value,
		CancelledOrders: ord.Aggregations.Cancelled.DocCount,
		Revenue:         revenue(c.Purchases.Currencies),
		TopProducts: TopProducts{
			View: products(c.Views.Products), Click: products(c.Clicks.Products),
			AddToCart: products(c.Carts.Products), Purchase: products(c.Purchases.Products),
		},
		TopQueries:       queries(c.Clicks.Queries),
		ClicksByList:     keyCounts(c.Clicks.Lists),
		Lists:            listClicks(c.Clicks.Lists),
		ClicksByPosition: positions(c.Clicks.Positions),
		Countries:        keyCounts(c.Countries),
		Devices:          keyCounts(c.Devices),
		Sites:            keyCounts(c.Sites),
	}
	s.Totals, s.Daily = series(p, c.Types)
	return s, nil
}

func notRecorded(d filterAgg) NotRecordedCounts {
	out := NotRecordedCounts{Total: int64(d.Events.Value), ByReason: map[string]int64{}}
	for _, b := range d.Reasons.Buckets {
		out.ByReason[b.str()] = int64(b.Events.Value)
	}
	return out
}

// series gives the totals per type and one entry per day of p, empty days included.
func series(p Period, types bucketList) (Totals, []Day) {
	days := make([]Day, p.Days())
	for i := range days {
		days[i].Date = p.From.AddDate(0, 0, i).Format(dateLayout)
	}
	var totals Totals
	for _, t := range types.Buckets {
		typ := Type(t.str())
		totals.add(typ, t.DocCount)
		if t.Daily == nil {
			continue
		}
		for _, d := range t.Daily.Buckets {
			i := int(time.UnixMilli(d.int()).UTC().Sub(p.From) / (24 * time.Hour))
			if i >= 0 && i < len(days) {
				days[i].Totals.add(typ, d.DocCount)
			}
		}
	}
	return totals, days
}

func (t *Totals) add(typ Type, n int64) {
	switch typ {
	case View:
		t.View += n
	case Click:
		t.Click += n
	case AddToCart:
		t.AddToCart += n
	case Purchase:
		t.Purchase += n
	case Cancel:
		t.Cancel += n
	}
}

func revenue(l bucketList) []Revenue {
	out := make([]Revenue, 0, len(l.Buckets))
	for _, b := range l.Buckets {
		var amount float64
		if b.Revenue != nil {
			amount = b.Revenue.Value
		}
		out = append(out, Revenue{Currency: b.str(), Amount: amount, Purchases: b.DocCount})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Amount > out[j].Amount })
	return out
}

func products(l bucketList) []ProductCount {
	out := make([]ProductCount, 0, len(l.Buckets))
	for _, b := range l.Buckets {
		out = append(out, ProductCount{ObjectID: b.str(), Count: b.DocCount, Record: json.RawMessage("null")})
	}
	return out
}

func queries(l bucketList) []QueryCount {
	out := make([]QueryCount, 0, len(l.Buckets))
	for _, b := range l.Buckets {
		out = append(out, QueryCount{Query: b.str(), Clicks: b.DocCount})
	}
	return out
}

func keyCounts(l bucketList) []KeyCount {
	out := make([]KeyCount, 0, len(l.Buckets))
	for _, b := range l.Buckets {
		out = append(out, KeyCount{Key: b.str(), Count: b.DocCount})
	}
	return out
}

// listClicks gives every recommendation list its clicks and most clicked products, most
// clicks first (then in Lists' order).
func listClicks(l bucketList) []ListClicks {
	out := make([]ListClicks, len(Lists))
	for i, name := range Lists {
		out[i] = ListClicks{List: name, Products: []ProductCount{}}
		for _, b := range l.Buckets {
			if b.str() == string(name) && b.Products != nil {
				out[i].Clicks, out[i].Products = b.DocCount, products(*b.Products)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Clicks > out[j].Clicks })
	return out
}

func positions(l bucketList) []PositionCount {
	out := make([]PositionCount, 0, len(l.Buckets))
	for _, b := range l.Buckets {
		out = append(out, PositionCount{Position: int(b.int()), Clicks: b.DocCount})
	}
	return out
}

// productIDs lists the products of every top list once, for one record fetch.
func (s *Stats) productIDs() []string {
	seen := map[string]bool{}
	var ids []string
	for _, l := range s.topLists() {
		for _, p := range *l {
			if !seen[p.ObjectID] {
				seen[p.ObjectID] = true
				ids = append(ids, p.ObjectID)
			}
		}
	}
	return ids
}

func (s *Stats) topLists() []*[]ProductCount {
	t := &s.TopProducts
	out := []*[]ProductCount{&t.View, &t.Click, &t.AddToCart, &t.Purchase}
	for i := range s.Lists {
		out = append(out, &s.Lists[i].Products)
	}
	return out
}

// attachRecords sets each top product's record; those not in the catalog stay null.
func (s *Stats) attachRecords(records map[string]json.RawMessage) {
	for _, l := range s.topLists() {
		for i := range *l {
			if r, ok := records[(*l)[i].ObjectID]; ok {
				(*l)[i].Record = r
			}
		}
	}
}
