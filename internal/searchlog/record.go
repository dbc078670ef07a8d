// Package searchlog keeps the search log: one document per answered search (keyed
// POST /search, public search, each query of a multi-search; never a facet value
// search) in the monthly index esnames.Index.Searches(t) of the SearchIndex. It feeds
// the Events page's Searches section, query suggestions and ranking from events.
//
// A record holds the day, the query kept as a click's query is (lowercase, at most
// eight words: events.NormalizeQuery), the hit count and three flags: nothing about
// who searched (no IP address, user agent, key or visitor identifier). Recording is off
// the request's critical path: Recorder.Record only queues; a background loop writes
// the queue in bulk, and drops (and counts) what does not fit or cannot be written.
// Retention deletes a monthly index with the events' (events.Retention).
package searchlog

import (
	"time"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// DayLayout is the layout of Record.Day (UTC).
const DayLayout = time.DateOnly

// Record is one document of a monthly search log index.
type Record struct {
	Day      string `json:"day"`      // YYYY-MM-DD, UTC
	Query    string `json:"query"`    // lowercase, at most eight words; "" for an empty search
	Hits     int64  `json:"hits"`     // the search's total hit count
	Filtered bool   `json:"filtered"` // filters or facetFilters used
	Faceted  bool   `json:"faceted"`  // facets asked
	Public   bool   `json:"public"`   // public search or public multi-search
}

// Mapping is the mapping of a monthly search log index: dynamic fields are refused,
// so a document holds exactly Record's fields.
const Mapping = `{"mappings":{"dynamic":"strict","properties":{
"day":{"type":"date","format":"yyyy-MM-dd"},
"query":{"type":"keyword"},
"hits":{"type":"long"},
"filtered":{"type":"boolean"},
"faceted":{"type":"boolean"},
"public":{"type":"boolean"}}}}`

// Search is one answered search, as the API server tells it.
type Search struct {
	Index esnames.Index
	// UID is the SearchIndex's UID: a SearchIndex deleted and created again under the
	// same name gets its log index created again.
	UID      string
	Q        string // the query as sent
	Hits     int64
	Filtered bool
	Faceted  bool
	Public   bool
	At       time.Time // when it was answered; zero for the recorder's now
}

// NewRecord is the document of s.
func NewRecord(s Search) Record {
	return Record{Day: s.At.UTC().Format(DayLayout), Query: events.NormalizeQuery(s.Q), Hits: s.Hits,
		Filtered: s.Filtered, Faceted: s.Faceted, Public: s.Public}
}

// IndexName is the monthly index s is written to.
func IndexName(s Search) string {
	return s.Index.Searches(s.At)
}
