// Package loop is the engine's own search loop for the query shapes a catalog search
// sends: bools of match, multi_match, term, terms, ids, fuzzy, prefix and phrase queries,
// constant_score bands of them, dis_max, and range, term and exists filters. Per segment,
// on segment-local document numbers, it reads the terms' postings from the segment a
// block at a time (internal/engine/zap's Blocks), ORs a multi-term query's many terms
// into a bit set, reads positions only for a phrase's candidates, scores with the scorers
// package scoring builds (the same float32 arithmetic, in the same order, as its
// searchers), checks filters against columns, and hands every match to the caller, which
// counts, aggregates, applies a post_filter and keeps the best by score or by a sort
// (KeyedTopK). Bleve's searchers do the same through a DocumentMatch, a global document
// number and an interface call per posting and clause.
//
// A Node is a query's plan for one reader, built by package dsl from its queries; dsl
// builds one only for the shapes this package runs, and the search falls back to bleve
// for every other.
package loop

import (
	segapi "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/scoring"
)

// Node is a query planned for one reader; open makes its evaluator on one segment.
type Node interface {
	open(s *segment) evaluator
}

// Term matches the documents holding a term, scored by BM25 (0 without: a filter's).
type Term struct {
	// Lists are the term's postings lists, one per segment of the reader.
	Lists []segapi.PostingsList
	// Text fields score with the document's frequency and its field's norm (Norms, per
	// segment); keyword and boolean fields with a frequency and a norm of one.
	Text  bool
	BM25  *scoring.BM25
	Norms [][]byte
}

// None matches nothing.
type None struct{}

// Disjunction matches the documents at least Min of its clauses match (one at least).
// Its score is Lucene's DisjunctionSumScorer's, or with DisMax its
// DisjunctionMaxScorer's with the tie breaker Tie.
type Disjunction struct {
	Subs   []Node
	Min    int
	DisMax bool
	Tie    float32
}

// Conjunction matches the documents all its clauses match; the first Scoring of them
// are summed in its score, the others only match.
type Conjunction struct {
	Subs    []Node
	Scoring int
}

// Optional matches Req's documents, scored with Opt's score added where Opt matches.
type Optional struct{ Req, Opt Node }

// Filtered matches Node's documents that pass every check of Must and none of Not, and
// that none of Excl matches (a bool's filters and must_not clauses).
type Filtered struct {
	Node      Node
	Ranges    []Range // checked first, and without a call each
	Must, Not []Check
	Excl      []Node
}

// Range is a range filter on a column: a document passes when one of its values'
// ordinals lies in [From, To) of its segment's (per segment, in the reader's order).
type Range struct {
	Cols     []*columns.Column
	From, To []uint32
}

// Check tells whether a document (a segment of the reader and a number in it) passes a
// filter: package dsl binds its predicates to columns this way.
type Check func(seg int, local uint64) bool
