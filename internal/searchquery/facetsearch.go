package searchquery

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// A facet value search (POST /facets/{field}/search) finds the values of one facet field
// that match a facet query as a prefix, with the index's typo rules (facetmatch.go),
// counted within the search that q, filters and facetFilters describe, the field's own
// selection left out (the counts its refinement list shows). Elasticsearch counts the
// values (a terms aggregation of the FacetSearchTerms most frequent ones, and for a
// string field those whose words start with the facet query, case aside), Go matches
// them: so a value found only through a typo or its accents is found among the
// FacetSearchTerms most frequent values of the search.

// Limits of a facet value search.
const (
	// DefaultFacetSearchValues is the number of values when the request does not say.
	DefaultFacetSearchValues = 10
	// MaxFacetSearchValues bounds maxValues.
	MaxFacetSearchValues = 100
	// FacetSearchTerms is the most frequent values the search counts to match in Go.
	FacetSearchTerms = 1000
)

// FacetSearchRequest is the body of a facet value search.
type FacetSearchRequest struct {
	// FacetQuery is what the values must start with; empty matches every value.
	FacetQuery string `json:"facetQuery"`
	// Q, Filters and FacetFilters describe the search the values are counted within.
	Q            string           `json:"q"`
	Filters      *Filter          `json:"filters"`
	FacetFilters map[string][]any `json:"facetFilters"`
	// MaxValues is the number of values returned (default 10).
	MaxValues int `json:"maxValues"`
}

// FacetSearchResponse is the answer of a facet value search.
type FacetSearchResponse struct {
	Values []FacetHit `json:"values"`
}

// FacetHit is a matching value, the number of records of the search holding it, and the
// value HTML-escaped with what matched in <em>.
type FacetHit struct {
	Value       any    `json:"value"`
	Count       int64  `json:"count"`
	Highlighted string `json:"highlighted"`
	typos       int
}

// FacetSearchPlan is a validated facet value search.
type FacetSearchPlan struct {
	Body []byte
	// Retry: the search matches nothing with all its words (matchingStrategy all), and a
	// plan with one word dropped from the end may match.
	Retry   bool
	matcher facetMatcher
	max     int
}

// BuildFacetSearch validates a facet value search of field under access and the
// index's schema and returns its plan, drop words dropped from the end of q.
func BuildFacetSearch(req FacetSearchRequest, field string, r Access, s Schema, drop int) (FacetSearchPlan, error) {
	var p problems
	sreq := Request{Q: req.Q, Filters: req.Filters, FacetFilters: req.FacetFilters}
	checkFacetSearch(req, field, r, &p)
	if len(req.Q) > MaxQueryLength {
		p.add("q", "must be at most %d bytes", MaxQueryLength)
	}
	filters := filterClauses(req.Filters, r, s, &p)
	sel := checkFacetFilters(&sreq, r, s, &p)
	if err := p.err(); err != nil {
		return FacetSearchPlan{}, err
	}
	tp := newTextPlan(sreq, r, s, drop, nil)
	body := map[string]any{
		"size": 0, "track_total_hits": true,
		"query": map[string]any{"bool": boolQuery(tp.query(nil), append(filters, sel.all(field)...))},
		"aggs":  facetSearchAggs(req, field, s),
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return FacetSearchPlan{}, err
	}
	return FacetSearchPlan{Body: raw, Retry: tp.strategy == StrategyAll && len(tp.words.kept) > 1,
		matcher: newFacetMatcher(req.FacetQuery, tp.typos), max: facetSearchMax(req)}, nil
}

// checkFacetSearch validates the field (a facet field, allowed in public facets for
// browsers), the facet query and maxValues.
func checkFacetSearch(req FacetSearchRequest, field string, r Access, p *problems) {
	if allowed := r.facetable(); !allowed.has(field) {
		p.add("field", "%s", notAllowed(field, allowed))
	}
	if len(req.FacetQuery) > MaxQueryLength {
		p.add("facetQuery", "must be at most %d bytes", MaxQueryLength)
	}
	if req.MaxValues < 0 || req.MaxValues > MaxFacetSearchValues {
		p.add("maxValues", "must be between 1 and %d", MaxFacetSearchValues)
	}
}

func facetSearchMax(req FacetSearchRequest) int {
	if req.MaxValues == 0 {
		return DefaultFacetSearchValues
	}
	return req.MaxValues
}

// facetSearchAggs count the field's most frequent values and, for a string field and a
// facet query, those with a word starting with it (ASCII case aside).
func facetSearchAggs(req FacetSearchRequest, field string, s Schema) map[string]any {
	exact := s.exactField(field, nil)
	aggs := map[string]any{"values": map[string]any{"terms": map[string]any{"field": exact, "size": FacetSearchTerms}}}
	if f, ok := s[field]; ok && f.Kind == KindString && strings.TrimSpace(req.FacetQuery) != "" {
		aggs["prefixed"] = map[string]any{"terms": map[string]any{"field": exact, "size": MaxFacetSearchValues,
			"include": "(.*[^a-zA-Z0-9])?" + caseless(strings.TrimSpace(req.FacetQuery)) + ".*"}}
	}
	return aggs
}

// caseless is a regular expression matching s with any case of its ASCII letters, in the
// syntax both Lucene and Go read: letters as a class of both cases, other ASCII
// punctuation escaped, everything else as is.
func caseless(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128 && unicode.IsLetter(r):
			b.WriteString("[" + string(unicode.ToLower(r)) + string(unicode.ToUpper(r)) + "]")
		case r < 128 && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
			b.WriteString(`\` + string(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ShapeFacetSearch matches the values counted against the facet query and keeps the
// most frequent (the fewest typos first among equals, then in value order).
func ShapeFacetSearch(plan FacetSearchPlan, raw []byte) (FacetSearchResponse, error) {
	var res struct {
		Aggregations map[string]termsAnswer `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return FacetSearchResponse{}, fmt.Errorf("decoding the facet search answer: %w", err)
	}
	found := map[string]FacetHit{}
	for _, name := range []string{"values", "prefixed"} {
		for _, b := range res.Aggregations[name].Buckets {
			v := facetValue(b.Key, b.KeyAsString)
			text := fmt.Sprint(v)
			if fm, ok := plan.matcher.match(text); ok {
				found[text] = FacetHit{Value: v, Count: b.DocCount, Highlighted: fm.highlight(text), typos: fm.typos}
			}
		}
	}
	hits := slices.SortedFunc(maps.Values(found), func(a, b FacetHit) int {
		switch {
		case a.Count != b.Count:
			return cmp.Compare(b.Count, a.Count)
		case a.typos != b.typos:
			return cmp.Compare(a.typos, b.typos)
		}
		return strings.Compare(fmt.Sprint(a.Value), fmt.Sprint(b.Value))
	})
	return FacetSearchResponse{Values: append([]FacetHit{}, hits[:min(len(hits), plan.max)]...)}, nil
}

// MatchesNothing reports a facet search answer whose search matched no record.
func MatchesNothing(raw []byte) bool {
	var res totalOnly
	return json.Unmarshal(raw, &res) == nil && res.Hits.Total.Value == 0
}

// totalOnly is an answer's hit count.
type totalOnly struct {
	Hits struct {
		Total struct {
			Value int64 `json:"value"`
		} `json:"total"`
	} `json:"hits"`
}
