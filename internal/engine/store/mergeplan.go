package store

import "github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

// Scorch's merge planner allows an index as many segments as its live size fills floor
// sized tiers: an index of 1,000 documents, under the 2,000 document floor, is allowed one.
// Every refresh then merges its new segment into all the others, so each single-record
// write with refresh=wait_for rewrote the whole index: half the engine's CPU in a
// single-record write benchmark of a 900 record index went to those merges, slowing every
// request beside them. Lucene's TieredMergePolicy allows at least segsPerTier segments
// for the same reason ("allowedSegCount may occasionally be less than segsPerTier if
// segment sizes are below the floor size"); so does this planner now. Small segments then
// merge with each other, ten at a time, and an index past the floor plans as before.
func init() {
	mergeplan.DefaultMergePlanOptions.CalcBudget = tieredBudget
}

// tieredBudget is scorch's budget, never less than one full tier.
func tieredBudget(totalSize, firstTierSize int64, o *mergeplan.MergePlanOptions) int {
	return max(mergeplan.CalcBudget(totalSize, firstTierSize, o), o.MaxSegmentsPerTier)
}
