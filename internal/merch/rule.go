// Package merch holds the merchandising rules of SearchIndexes: what a merchandiser
// decides for the queries that matter (pin, hide, boost, bury, filter, rewrite, show a
// banner). Rules are data in Elasticsearch, one rules index per SearchIndex
// (esnames.Index.Rules), never settings in the CR: they change no record's version and
// survive full replacements and rebuilds, and are deleted with the SearchIndex.
//
// The service writes and reads rules (write.go, read.go) and keeps, per API server
// replica, each index's rules compiled for matching (cache.go, set.go); a search asks it
// which rules apply to its query and what they change (apply.go). Patterns and queries
// are compared as the index's language analysis reads them, through Elasticsearch's
// _analyze (analyze.go), so "iPhones" triggers a rule for "iphone".
package merch

import (
	"encoding/json"
	"time"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Limits of rules.
const (
	// MaxRules is the number of rules an index holds.
	MaxRules = 10_000
	// MaxBatch is the number of rules one POST /rules takes.
	MaxBatch = 1_000
	// MaxPatternBytes bounds a condition's pattern.
	MaxPatternBytes = 512
	// MaxPosition is the last position a promoted record may take.
	MaxPosition = 1_000
	// MaxConditions, MaxWindows, MaxPromote, MaxHide and MaxWeighted bound the lists of one
	// rule; MaxRemove the words a query consequence removes.
	MaxConditions = 10
	MaxWindows    = 10
	MaxPromote    = 100
	MaxHide       = 100
	MaxWeighted   = 10
	MaxRemove     = 10
	// MaxWeight is the largest weight of a boost or a bury (default 1).
	MaxWeight = 10
	// MaxDescriptionBytes and MaxUserDataBytes bound the free-form parts.
	MaxDescriptionBytes = 1_024
	MaxUserDataBytes    = 10_240
	// MaxApplied is the number of rules one search applies: the first in order.
	MaxApplied = 10
)

// ReservedID is the objectID no rule may take: GET /rules/history is the history.
const ReservedID = "history"

// Anchorings of a condition: how its pattern must sit in the query.
const (
	Is         = "is"
	StartsWith = "startsWith"
	EndsWith   = "endsWith"
	Contains   = "contains"
)

// Rule is one merchandising rule, as clients send and read it.
type Rule struct {
	// ObjectID identifies the rule: 1 to 64 letters, digits, _ and -.
	ObjectID    string `json:"objectID"`
	Description string `json:"description,omitempty"`
	// Enabled is true when absent.
	Enabled *bool `json:"enabled,omitempty"`
	// Conditions: the rule applies when any of them holds for the search; none, or one
	// that holds nothing, applies to every search.
	Conditions []Condition `json:"conditions,omitempty"`
	// Validity: the rule applies within any of these windows (UTC); none is always.
	Validity    []Window    `json:"validity,omitempty"`
	Consequence Consequence `json:"consequence"`
}

// Condition holds for a search when all it holds matches (conditions.go): Pattern (as
// the index's language analysis reads it) is the whole query (is), its first words
// (startsWith), its last words (endsWith) or a run of its words (contains), an empty
// pattern with is the empty query; the search's filters select Filters; its
// ruleContexts name Context.
type Condition struct {
	Pattern   *string             `json:"pattern,omitempty"`
	Anchoring string              `json:"anchoring,omitempty"`
	Filters   *searchquery.Filter `json:"filters,omitempty"`
	Context   string              `json:"context,omitempty"`
}

// Window is a time range: from its start (inclusive) to its end (exclusive); an
// absent bound is open.
type Window struct {
	From  *time.Time `json:"from,omitempty"`
	Until *time.Time `json:"until,omitempty"`
}

// Consequence is what a rule changes in the searches it applies to.
type Consequence struct {
	// Promote puts records at 1-based positions, whatever the text matches.
	Promote []Promotion `json:"promote,omitempty"`
	// Hide keeps records out of the results.
	Hide []string `json:"hide,omitempty"`
	// Boost and Bury move the records matching a filter up or down within the ranking.
	Boost []Weighted `json:"boost,omitempty"`
	Bury  []Weighted `json:"bury,omitempty"`
	// Filters keep only the records matching them (AND with the request's).
	Filters *searchquery.Filter `json:"filters,omitempty"`
	// Query rewrites the query before it is searched.
	Query *QueryEdit `json:"query,omitempty"`
	// UserData is returned as it is, for the page (a banner).
	UserData json.RawMessage `json:"userData,omitempty"`
	// RenderingContent replaces the index's facetOrdering in the answer (the first
	// rule's that has one).
	RenderingContent *searchquery.RenderingContent `json:"renderingContent,omitempty"`
}

// Promotion puts a record at a position.
type Promotion struct {
	ObjectID string `json:"objectID"`
	Position int    `json:"position"`
}

// Weighted is a boost or bury: the records matching Filter, by Weight (1 to 10, default 1).
type Weighted struct {
	Filter *searchquery.Filter `json:"filter"`
	Weight *int                `json:"weight,omitempty"`
}

// QueryEdit replaces the query, or removes words from it: exactly one of the two.
type QueryEdit struct {
	Replace *string  `json:"replace,omitempty"`
	Remove  []string `json:"remove,omitempty"`
}

// enabled reports whether the rule may apply.
func (r Rule) enabled() bool { return r.Enabled == nil || *r.Enabled }

// weight is w's weight with its default.
func (w Weighted) weight() int {
	if w.Weight == nil {
		return 1
	}
	return *w.Weight
}

// validAt reports whether t falls within one of the rule's windows.
func (r Rule) validAt(t time.Time) bool {
	if len(r.Validity) == 0 {
		return true
	}
	for _, w := range r.Validity {
		if (w.From == nil || !t.Before(*w.From)) && (w.Until == nil || t.Before(*w.Until)) {
			return true
		}
	}
	return false
}
