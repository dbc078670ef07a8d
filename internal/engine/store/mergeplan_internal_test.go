package store

import (
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// The budget is the number of segments the planner lets an index keep before it merges.
func TestTieredBudget(t *testing.T) {
	for _, c := range []struct {
		name            string
		total, smallest int64
		want            int
	}{
		{"an index under the floor with a one-record segment keeps a whole tier", 1_000, 1, 10},
		{"an index under the floor made by bulk loads plans as scorch does", 1_000, 1_000, 1},
		{"a bulk-loaded index of 5,000 plans as scorch does", 5_000, 1_000, 3},
		{"a segment of the tiny size still counts as tiny", 5_000, tinySegmentDocs, 10},
		{"a segment just past it does not", 5_000, tinySegmentDocs + 1, 3},
		{"an index past one tier keeps scorch's larger budget", 100_000, 1, 14},
		{"an index of a million documents plans as scorch does", 1_000_000, 5_000, 21},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tieredBudget(c.total, c.smallest, nil); got != c.want {
				t.Fatalf("tieredBudget(%d, %d) = %d, want %d", c.total, c.smallest, got, c.want)
			}
			scorch := mergeplan.CalcBudget(c.total, scorchPlan.RaiseToFloorSegmentSize(c.smallest), &scorchPlan)
			if c.smallest > tinySegmentDocs && scorch != c.want {
				t.Fatalf("scorch's own budget is %d: without a tiny segment they must agree", scorch)
			}
		})
	}
}

// The planner scores merges with scorch's floor, although the options it is given hold a
// floor of one: two rosters scorch ranks one way rank the same way here.
func TestMergeScoresKeepScorchsFloor(t *testing.T) {
	o := mergeplan.DefaultMergePlanOptions
	if o.FloorSegmentSize != 1 || o.CalcBudget == nil || o.ScoreSegments == nil {
		t.Fatalf("the engine's planner options are not installed: %+v", o)
	}
	big, tiny := testSegment{id: 1, live: 906}, testSegment{id: 2, live: 1}
	withBig := []mergeplan.Segment{big, tiny}
	ours, scorch := o.ScoreSegments(withBig, &o), mergeplan.ScoreSegments(withBig, &scorchPlan)
	if ours != scorch {
		t.Fatalf("score %v, scorch's %v", ours, scorch)
	}
}

// Scorch budgets in bytes of segment files instead of documents once the persister's
// in-memory merge size is set; the budget above counts documents, so it must stay unset.
func TestScorchConfigKeepsTheDocumentBudget(t *testing.T) {
	if po, ok := scorchConfig()["scorchPersisterOptions"]; ok {
		t.Fatalf("scorch's persister options are set (%v): check that maxSizeInMemoryMergePerWorker is not", po)
	}
	if c := mergeplan.DefaultMergePlanOptions.BudgetCurrency(); c != mergeplan.LiveSizeBudget {
		t.Fatalf("the planner budgets in %v, not live documents", c)
	}
}

type testSegment struct {
	id   uint64
	live int64
}

func (s testSegment) Id() uint64          { return s.id }
func (s testSegment) FullSize() int64     { return s.live }
func (s testSegment) LiveSize() int64     { return s.live }
func (s testSegment) HasVector() bool     { return false }
func (s testSegment) FileSize() int64     { return s.live * 100 }
func (s testSegment) LiveFileSize() int64 { return s.live * 100 }
