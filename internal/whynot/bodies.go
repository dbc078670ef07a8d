// Package whynot decides why a record is not on a search's page (a search's
// explain: {objectID}): from three Elasticsearch searches, sent together in one _msearch
// beside the search itself (they read its plan, not its answer), and pure functions over
// their answers. The probe is the search's own body narrowed to the record (its ranking,
// if the search matches it at all). The checks are a search of the record alone, whose
// aggregation tests it against each part of the search alone: the text, each query word,
// each filter (the request's, a secured key's, facetFilters, a rule's, the public
// policy's). The window is the search's body, compiled without explain, for its first
// MaxWindow hits, IDs only: the record's position, or the record of its group shown
// instead.
package whynot

import (
	"encoding/json"
	"fmt"
	"maps"
)

// MaxWindow is how deep a position is looked for (searchquery.MaxWindow).
const MaxWindow = 1000

// Check kinds: what a failed check says about the record.
const (
	// KindText is the search's text query as a whole.
	KindText = "text"
	// KindWord is one query word alone.
	KindWord = "word"
	// KindFilter is a filter of the search (Name says which).
	KindFilter = "filter"
	// KindRule is a rule's filters (Name is the rule).
	KindRule = "rule"
	// KindPolicy is a forced filter of the index's public search policy, which public
	// search would add (Name says which).
	KindPolicy = "policy"
)

// Check is one query the record is tested against alone.
type Check struct {
	Kind, Name string
	Query      any
}

// checksAgg names the checks' aggregation; its buckets are c0, c1, ... in checks' order.
const checksAgg = "whynot"

// Checks is a search of the record id alone (so that its aggregation reads one
// document, whatever the index holds), returning its source, with a filters
// aggregation testing it against each check.
func Checks(id string, checks []Check) ([]byte, error) {
	buckets := map[string]any{}
	for i, c := range checks {
		buckets[fmt.Sprintf("c%d", i)] = c.Query
	}
	b := map[string]any{"query": idsQuery(id), "size": 1, "track_total_hits": false}
	if len(checks) > 0 {
		b["aggs"] = map[string]any{checksAgg: map[string]any{"filters": map[string]any{"filters": buckets}}}
	}
	return json.Marshal(b)
}

// Probe is body (a search's) narrowed to the record id, with nothing but its ranking.
func Probe(body []byte, id string) ([]byte, error) {
	b, err := decode(body)
	if err != nil {
		return nil, err
	}
	query, ok := b["query"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the search body has no query")
	}
	b["query"] = map[string]any{"bool": map[string]any{"must": []any{query}, "filter": []any{idsQuery(id)}}}
	b["from"], b["size"], b["track_total_hits"], b["_source"] = 0, 1, false, false
	for _, k := range []string{"highlight", "collapse", "post_filter", "aggs", "aggregations"} {
		delete(b, k)
	}
	return json.Marshal(b)
}

// Window is body (a search's) for its first MaxWindow hits, IDs only and the field
// that groups them (distinct; "" for none): where the record is among them.
func Window(body []byte, groupField string) ([]byte, error) {
	b, err := decode(body)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"highlight", "aggs", "aggregations"} {
		delete(b, k)
	}
	if c, ok := b["collapse"].(map[string]any); ok {
		c = maps.Clone(c)
		delete(c, "inner_hits")
		b["collapse"] = c
	}
	b["_source"] = false
	if groupField != "" {
		b["_source"] = map[string]any{"includes": []string{groupField}}
	}
	b["from"], b["size"], b["track_total_hits"] = 0, MaxWindow, false
	return json.Marshal(b)
}

// TextQuery is the text part of a search body (what a record must match besides the
// filters), nil when it has none.
func TextQuery(body []byte) (any, error) {
	b, err := decode(body)
	if err != nil {
		return nil, err
	}
	q, _ := b["query"].(map[string]any)
	bq, _ := q["bool"].(map[string]any)
	must, _ := bq["must"].([]any)
	if len(must) == 0 {
		return nil, nil
	}
	return must[0], nil
}

func idsQuery(id string) map[string]any {
	return map[string]any{"ids": map[string]any{"values": []string{id}}}
}

func decode(body []byte) (map[string]any, error) {
	var b map[string]any
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("decoding a search body: %w", err)
	}
	return b, nil
}
