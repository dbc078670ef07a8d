package store

import (
	"testing"

	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// The budget is the number of segments the planner lets an index keep before it merges.
func TestTieredBudget(t *testing.T) {
	o := mergeplan.DefaultMergePlanOptions
	for _, c := range []struct {
		name        string
		total, tier int64
		want        int
	}{
		{"an index under the floor keeps a whole tier, not one segment", 1_000, 2_000, 10},
		{"an empty index keeps a whole tier", 0, 2_000, 10},
		{"an index of exactly one tier keeps it", 20_000, 2_000, 10},
		{"an index past one tier plans as scorch does", 100_000, 2_000, 14},
		{"an index of a million documents plans as scorch does", 1_000_000, 2_000, 24},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tieredBudget(c.total, c.tier, &o); got != c.want {
				t.Fatalf("tieredBudget(%d, %d) = %d, want %d", c.total, c.tier, got, c.want)
			}
			if scorch := mergeplan.CalcBudget(c.total, c.tier, &o); c.total > 20_000 && scorch != c.want {
				t.Fatalf("scorch's own budget is %d; past one tier they should agree", scorch)
			}
		})
	}
	if mergeplan.DefaultMergePlanOptions.CalcBudget == nil {
		t.Fatal("the engine's planner budget is not installed")
	}
}
