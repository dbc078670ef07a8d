package store

import (
	"math"
	"testing"
)

// TestPartCount: refreshes split into parts of about maxPartDocs, evenly over the cores
// once every core gets at least minPartDocs.
func TestPartCount(t *testing.T) {
	for _, c := range []struct{ n, procs, want int }{
		{0, 2, 1}, {1, 2, 1}, {3999, 2, 1}, {4000, 2, 2}, {10000, 2, 2}, {20000, 2, 2},
		{24999, 2, 2}, {25000, 2, 4}, {40000, 2, 4}, {45000, 2, 6}, {15000, 1, 2}, {14999, 1, 1},
		{9000, 4, 4}, {7999, 4, 1},
	} {
		if got := partCount(c.n, c.procs); got != c.want {
			t.Errorf("partCount(%d, %d) = %d, want %d", c.n, c.procs, got, c.want)
		}
	}
}

// TestPendingLimits: unrefreshed writes are bounded by the soft memory limit, between
// minPendingOps and maxPendingOps, and a background refresh starts at half of the bound.
func TestPendingLimits(t *testing.T) {
	for _, c := range []struct {
		limit       int64
		eager, most int
	}{
		{math.MaxInt64, 20000, 40000}, {20 << 30, 20000, 40000}, {2 << 30, 5242, 10485},
		{1 << 30, 2621, 5242}, {512 << 20, 2000, 4000}, {1, 2000, 4000},
	} {
		if eager, most := pendingLimits(c.limit); eager != c.eager || most != c.most {
			t.Errorf("pendingLimits(%d) = %d, %d; want %d, %d", c.limit, eager, most, c.eager, c.most)
		}
	}
}

// TestPendingAction: a writer starts background refreshes from the eager mark on and, at
// the bound, waits for a refresh to take what is pending rather than building it.
func TestPendingAction(t *testing.T) {
	for _, c := range []struct {
		pending, eager, most int
		background, wait     bool
	}{
		{0, 5242, 10485, false, false}, {5241, 5242, 10485, false, false},
		{5242, 5242, 10485, true, false}, {10484, 5242, 10485, true, false},
		{10485, 5242, 10485, true, true}, {12000, 4606, 9212, true, true},
	} {
		if bg, wait := pendingAction(c.pending, c.eager, c.most); bg != c.background || wait != c.wait {
			t.Errorf("pendingAction(%d, %d, %d) = %v, %v; want %v, %v", c.pending, c.eager, c.most, bg, wait, c.background, c.wait)
		}
	}
}
