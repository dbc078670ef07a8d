package store

import "github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

// Scorch's merge planner allows an index as many segments as its live size fills
// floor-sized tiers: an index of 1,000 documents, under the 2,000 document floor, is
// allowed one. Every single-record write with refresh=wait_for makes a segment of one
// document, which the next plan merged into all the others: each write rewrote the whole
// index, and half the engine's CPU in a single-record write benchmark of a 900 record
// index went to those merges, slowing every request beside them. Lucene's
// TieredMergePolicy allows at least segsPerTier segments for this reason ("allowedSegCount
// may occasionally be less than segsPerTier if segment sizes are below the floor size").
// Here a whole tier is allowed only while the smallest segment is tiny, a few records
// refreshed on their own: those then merge with each other, ten at a time. Segments that
// bulk loads make are bigger, and an index made of them plans exactly as scorch plans it,
// since more segments there cost searches more than the merges they save.

// The sizes the budget is given are live document counts because scorch's file-size
// budget is off: scorch turns it on from the persister's maxSizeInMemoryMergePerWorker,
// which scorchConfig leaves unset (its test says so).

// tinySegmentDocs is the size up to which a segment counts as a few records refreshed on
// their own; a bulk load's refreshes hold hundreds or thousands.
const tinySegmentDocs = 64

// scorchPlan is scorch's own planner options, its floor included.
var scorchPlan = mergeplan.DefaultMergePlanOptions

func init() {
	o := &mergeplan.DefaultMergePlanOptions
	// A floor of one lets the budget see the smallest segment's real size; the budget
	// and the scores below apply scorch's floor themselves.
	o.FloorSegmentSize = 1
	o.CalcBudget = tieredBudget
	o.ScoreSegments = func(segments []mergeplan.Segment, _ *mergeplan.MergePlanOptions) float64 {
		return mergeplan.ScoreSegments(segments, &scorchPlan)
	}
}

// tieredBudget is scorch's budget, or a whole tier when the smallest segment, of
// smallest live documents, is tiny.
func tieredBudget(total, smallest int64, _ *mergeplan.MergePlanOptions) int {
	budget := mergeplan.CalcBudget(total, scorchPlan.RaiseToFloorSegmentSize(smallest), &scorchPlan)
	if smallest <= tinySegmentDocs {
		budget = max(budget, scorchPlan.MaxSegmentsPerTier)
	}
	return budget
}
