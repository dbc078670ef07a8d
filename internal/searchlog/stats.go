package searchlog

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/events"
)

// Sizes of the Searches section's lists.
const (
	// TopSize is how many queries each top list holds.
	TopSize = 10
	// noClickCandidates is how many of the most searched queries with results are
	// checked for clicks to find the top searches without a click.
	noClickCandidates = 100
)

// Stats is the Searches section of GET /events/stats over a period: what shoppers
// searched for, and how often their clicks followed. Queries are as the log keeps them
// (lowercase, at most eight words); the empty query (browsing) counts in Searches and
// Daily and is in no list.
type Stats struct {
	Searches  int64 `json:"searches"`
	NoResults int64 `json:"noResults"` // searches that found nothing
	// Clicks are the clicks on search results (click events with a query).
	Clicks int64 `json:"clicks"`
	// ClickThroughRate is Clicks per search with a query; 0 without such searches.
	ClickThroughRate float64 `json:"clickThroughRate"`
	// AverageClickPosition is the mean position of the clicks on search results (1 is
	// the first hit); 0 without clicks.
	AverageClickPosition float64 `json:"averageClickPosition"`
	// Daily has one entry per day of the period, empty days included.
	Daily []DayCount `json:"daily"`
	// TopQueries are the most searched queries with their clicks, most searched first.
	TopQueries []QueryStats `json:"topQueries"`
	// NoResultQueries are the most searched queries that found nothing.
	NoResultQueries []QueryCount `json:"noResultQueries"`
	// NoClickQueries are the most searched queries that found something but whose
	// results nobody clicked.
	NoClickQueries []QueryCount `json:"noClickQueries"`
}

// DayCount is one day of the searches chart.
type DayCount struct {
	Date      string `json:"date"` // YYYY-MM-DD
	Searches  int64  `json:"searches"`
	NoResults int64  `json:"noResults"`
}

// QueryStats is a query's searches and the clicks on its results.
type QueryStats struct {
	Query    string `json:"query"`
	Searches int64  `json:"searches"`
	Clicks   int64  `json:"clicks"`
	// ClickThroughRate is Clicks / Searches.
	ClickThroughRate float64 `json:"clickThroughRate"`
}

// QueryCount is a query and its searches.
type QueryCount struct {
	Query    string `json:"query"`
	Searches int64  `json:"searches"`
}

type obj = map[string]any

func termQ(field string, v any) obj { return obj{"term": obj{field: v}} }

func termsAgg(field string, size int) obj { return obj{"terms": obj{"field": field, "size": size}} }

// inDays selects the records of the days of p.
func inDays(p events.Period) obj {
	return obj{"range": obj{"day": obj{"gte": p.From.Format(DayLayout), "lte": p.To.Format(DayLayout)}}}
}

// notEmpty leaves out the empty query, so browsing is in no list.
var notEmpty = obj{"bool": obj{"must_not": []any{termQ("query", "")}}}

func both(a, b obj) obj { return obj{"bool": obj{"filter": []any{a, b}}} }

// logQuery is the search over the period's search log indices.
func logQuery(p events.Period) obj {
	noHits := termQ("hits", 0)
	withHits := obj{"range": obj{"hits": obj{"gt": 0}}}
	return obj{
		"size": 0, "track_total_hits": true, "query": inDays(p),
		"aggs": obj{
			"noResults": obj{"filter": noHits},
			"daily": obj{"date_histogram": obj{"field": "day", "calendar_interval": "day", "min_doc_count": 1},
				"aggs": obj{"noResults": obj{"filter": noHits}}},
			"queries":  obj{"filter": notEmpty, "aggs": obj{"top": termsAgg("query", TopSize)}},
			"noHits":   obj{"filter": both(notEmpty, noHits), "aggs": obj{"top": termsAgg("query", TopSize)}},
			"withHits": obj{"filter": both(notEmpty, withHits), "aggs": obj{"top": termsAgg("query", noClickCandidates)}},
		},
	}
}

// clickQuery counts, over the period's event indices, the clicks on search results,
// their mean position, and the clicks of each of queries.
func clickQuery(p events.Period, queries []string) obj {
	clicks := obj{"bool": obj{"filter": []any{
		termQ("type", string(events.Click)), obj{"exists": obj{"field": "query"}},
		obj{"range": obj{"timestamp": obj{"gte": p.Start().UnixMilli(), "lt": p.End().UnixMilli()}}},
	}}}
	return obj{
		"size": 0, "track_total_hits": true, "query": clicks,
		"aggs": obj{
			"position": obj{"avg": obj{"field": "position"}},
			"queries":  obj{"filter": obj{"terms": obj{"query": queries}}, "aggs": obj{"top": termsAgg("query", len(queries)+1)}},
		},
	}
}

type bucket struct {
	Key       json.RawMessage `json:"key"`
	DocCount  int64           `json:"doc_count"`
	NoResults *docCount       `json:"noResults"`
}

type docCount struct {
	DocCount int64 `json:"doc_count"`
}

type topAgg struct {
	DocCount int64 `json:"doc_count"`
	Top      struct {
		Buckets []bucket `json:"buckets"`
	} `json:"top"`
}

type total struct {
	Hits struct {
		Total struct {
			Value int64 `json:"value"`
		} `json:"total"`
	} `json:"hits"`
}

type logAnswer struct {
	total
	Aggregations struct {
		NoResults docCount `json:"noResults"`
		Daily     struct {
			Buckets []bucket `json:"buckets"`
		} `json:"daily"`
		Queries  topAgg `json:"queries"`
		NoHits   topAgg `json:"noHits"`
		WithHits topAgg `json:"withHits"`
	} `json:"aggregations"`
}

type clickAnswer struct {
	total
	Aggregations struct {
		Position struct {
			Value *float64 `json:"value"`
		} `json:"position"`
		Queries topAgg `json:"queries"`
	} `json:"aggregations"`
}

func (b bucket) str() string {
	var s string
	_ = json.Unmarshal(b.Key, &s)
	return s
}

// candidates are the queries whose clicks the second search counts: the top ones and
// those that may be searched without a click.
func (a logAnswer) candidates() []string {
	out := []string{} // never null: a terms query needs an array
	for _, l := range []topAgg{a.Aggregations.Queries, a.Aggregations.WithHits} {
		for _, b := range l.Top.Buckets {
			out = append(out, b.str())
		}
	}
	return out
}

func decodeLog(raw []byte) (logAnswer, error) {
	var a logAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("decoding the search log answer: %w", err)
	}
	return a, nil
}

// shapeStats turns the two answers into the Searches section of p.
func shapeStats(p events.Period, log logAnswer, rawClicks []byte) (Stats, error) {
	var c clickAnswer
	if err := json.Unmarshal(rawClicks, &c); err != nil {
		return Stats{}, fmt.Errorf("decoding the clicks answer: %w", err)
	}
	clicks := map[string]int64{}
	for _, b := range c.Aggregations.Queries.Top.Buckets {
		clicks[b.str()] = b.DocCount
	}
	ag := log.Aggregations
	s := Stats{Searches: log.Hits.Total.Value, NoResults: ag.NoResults.DocCount, Clicks: c.Hits.Total.Value,
		Daily: daily(p, ag.Daily.Buckets), TopQueries: topQueries(ag.Queries, clicks),
		NoResultQueries: counts(ag.NoHits.Top.Buckets, nil, TopSize),
		NoClickQueries:  counts(ag.WithHits.Top.Buckets, clicks, TopSize)}
	if c.Aggregations.Position.Value != nil {
		s.AverageClickPosition = *c.Aggregations.Position.Value
	}
	s.ClickThroughRate = rate(s.Clicks, ag.Queries.DocCount)
	return s, nil
}

func rate(clicks, searches int64) float64 {
	if searches <= 0 {
		return 0
	}
	return float64(clicks) / float64(searches)
}

func daily(p events.Period, buckets []bucket) []DayCount {
	days := make([]DayCount, p.Days())
	for i := range days {
		days[i].Date = p.From.AddDate(0, 0, i).Format(DayLayout)
	}
	for _, b := range buckets {
		var ms int64
		_ = json.Unmarshal(b.Key, &ms)
		i := int(time.UnixMilli(ms).UTC().Sub(p.From) / (24 * time.Hour))
		if i < 0 || i >= len(days) {
			continue
		}
		days[i].Searches += b.DocCount
		if b.NoResults != nil {
			days[i].NoResults += b.NoResults.DocCount
		}
	}
	return days
}

func topQueries(a topAgg, clicks map[string]int64) []QueryStats {
	out := make([]QueryStats, 0, len(a.Top.Buckets))
	for _, b := range a.Top.Buckets {
		q, n := b.str(), clicks[b.str()]
		out = append(out, QueryStats{Query: q, Searches: b.DocCount, Clicks: n, ClickThroughRate: rate(n, b.DocCount)})
	}
	return out
}

// counts lists the buckets' queries, at most size, leaving out those clicked (when
// clicks is given).
func counts(buckets []bucket, clicks map[string]int64, size int) []QueryCount {
	out := []QueryCount{}
	for _, b := range buckets {
		if len(out) == size {
			break
		}
		if clicks != nil && clicks[b.str()] > 0 {
			continue
		}
		out = append(out, QueryCount{Query: b.str(), Searches: b.DocCount})
	}
	return out
}
