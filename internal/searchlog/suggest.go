package searchlog

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/esread"
	"github.com/aislehq/aisle/internal/searchquery"
)

// Limits of query suggestions.
const (
	DefaultSuggestions = 5
	MaxSuggestions     = 20
	// Candidates is how many of the most searched queries with results (over the three
	// months the log keeps) suggestions are chosen from.
	Candidates = 1000
)

// Candidate is a past query that found something, over the whole log.
type Candidate struct {
	Query    string
	Searches int64 // searches of it that found something
	Days     int64 // distinct days it was searched on (and found something)
	Hits     int64 // the most hits one of those searches found
}

// Suggestion is one suggested query. Categories are the top values of the index's
// category facet among its hits, when asked for.
type Suggestion struct {
	Query      string                   `json:"query"`
	Searches   int64                    `json:"searches"`
	Hits       int64                    `json:"hits"`
	Categories []searchquery.FacetValue `json:"categories,omitempty"`
}

// Matcher says whether a past query matches what is typed, and with how many typos
// (searchquery.SuggestionMatcher).
type Matcher interface {
	Match(query string) (typos int, ok bool)
}

// Suggest picks, among candidates searched on at least minDays days, at most limit
// that m matches: the most searched first, then the fewest typos, then by query.
func Suggest(candidates []Candidate, minDays int64, limit int, m Matcher) []Suggestion {
	type matched struct {
		c     Candidate
		typos int
	}
	var found []matched
	for _, c := range candidates {
		if c.Days < minDays {
			continue
		}
		if typos, ok := m.Match(c.Query); ok {
			found = append(found, matched{c, typos})
		}
	}
	slices.SortFunc(found, func(a, b matched) int {
		return cmp.Or(cmp.Compare(b.c.Searches, a.c.Searches), cmp.Compare(a.typos, b.typos), cmp.Compare(a.c.Query, b.c.Query))
	})
	out := []Suggestion{}
	for _, f := range found[:min(limit, len(found))] {
		out = append(out, Suggestion{Query: f.c.Query, Searches: f.c.Searches, Hits: f.c.Hits})
	}
	return out
}

// candidateQuery counts, over the whole log, the searches with a query that found
// something, per query, with their distinct days and most hits.
func candidateQuery() obj {
	return obj{
		"size": 0, "track_total_hits": false,
		"query": obj{"bool": obj{"filter": []any{obj{"range": obj{"hits": obj{"gt": 0}}}}, "must_not": []any{termQ("query", "")}}},
		"aggs": obj{"queries": obj{"terms": obj{"field": "query", "size": Candidates},
			"aggs": obj{"days": obj{"cardinality": obj{"field": "day"}}, "hits": obj{"max": obj{"field": "hits"}}}}},
	}
}

type candidateAnswer struct {
	Aggregations struct {
		Queries struct {
			Buckets []struct {
				bucket
				Days struct {
					Value int64 `json:"value"`
				} `json:"days"`
				Hits struct {
					Value *float64 `json:"value"`
				} `json:"hits"`
			} `json:"buckets"`
		} `json:"queries"`
	} `json:"aggregations"`
}

func shapeCandidates(raw []byte) ([]Candidate, error) {
	var a candidateAnswer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("decoding the suggestion candidates: %w", err)
	}
	out := make([]Candidate, 0, len(a.Aggregations.Queries.Buckets))
	for _, b := range a.Aggregations.Queries.Buckets {
		c := Candidate{Query: b.str(), Searches: b.DocCount, Days: b.Days.Value}
		if b.Hits.Value != nil {
			c.Hits = int64(*b.Hits.Value)
		}
		out = append(out, c)
	}
	return out, nil
}

// Candidates returns the suggestion candidates of idx, read at most events.StatsTTL ago
// (one aggregation of the whole log per index and minute, whatever is typed).
func (r *Reader) Candidates(ctx context.Context, idx esnames.Index) ([]Candidate, error) {
	return r.candidates.Get(idx.Stem(), func() ([]Candidate, error) {
		raw, err := esread.Search(ctx, r.es, idx.SearchesPattern(), candidateQuery())
		if err != nil {
			return nil, err
		}
		return shapeCandidates(raw)
	})
}
