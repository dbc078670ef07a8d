package store

import "runtime/debug"

// Unrefreshed writes wait as analysed bleve documents (about 4.6 KB each for a 930-byte
// product), like the indexing buffer ES sizes at 10% of its heap. pendingLimits gives how
// many start a background refresh and how many make writers wait for one: 20,000 and
// 40,000 when memory allows (a background refresh of 20,000 builds two parts of 10,000,
// see partCount, on the two cores of a small machine: with 10,000, indexing cost 8% more
// CPU in twice as many segments to build and merge), fewer under a soft memory limit,
// where a pending document is held for each pendingBytesPerOp of the limit (with 1 GiB,
// 100 KiB took 40.9 CPU-s per 100k documents and 200 KiB 31.0, peak RSS 1,154 and 1,123 MB).
const (
	eagerRefreshOps   = 20000
	maxPendingOps     = 40000
	minPendingOps     = 4000
	pendingBytesPerOp = 200 << 10
)

// pendingLimits are the eager refresh and writer backpressure thresholds under memLimit
// (math.MaxInt64: none).
func pendingLimits(memLimit int64) (eager, most int) {
	most = int(min(int64(maxPendingOps), max(int64(minPendingOps), memLimit/pendingBytesPerOp)))
	return min(eagerRefreshOps, most/2), most
}

// pendingAction is what a writer does after its batch left pending unrefreshed
// operations: start background refreshes from eager on, and past most wait for a refresh
// to take them. The writer never builds segments itself: a bulk that did (waiting for the
// refresh in flight, then building everything pending) took 1.2-2.6 s at one million
// documents, where the others took well under one.
func pendingAction(pending, eager, most int) (background, wait bool) {
	return pending >= eager, pending >= most
}

// holdPending starts a background refresh once pending reaches the eager mark and, past
// the bound, waits until a refresh has taken what is pending. Like ES's indexing buffer,
// this bounds the memory held by unrefreshed documents when writes come faster than
// refreshes absorb them, to the bound plus one refresh's documents being built.
func (ix *Index) holdPending(pending int) {
	eager, most := pendingLimits(debug.SetMemoryLimit(-1))
	background, wait := pendingAction(pending, eager, most)
	if background {
		ix.refreshBehind()
	}
	if wait {
		ix.awaitRoom(most)
	}
}

// refreshBehind runs background refreshes one after another while pending operations
// stay past the eager mark, so that a writer waiting for room always has one coming.
func (ix *Index) refreshBehind() {
	if !ix.asyncRefresh.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			_ = ix.Refresh()
			if ix.pendingAtEager() {
				continue
			}
			ix.asyncRefresh.Store(false)
			// A writer that passed the mark meanwhile saw this loop still running.
			if !ix.pendingAtEager() || !ix.asyncRefresh.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

func (ix *Index) pendingAtEager() bool {
	eager, _ := pendingLimits(debug.SetMemoryLimit(-1))
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.pendingN >= eager
}

// awaitRoom waits until fewer than most operations are pending: until a refresh takes them.
func (ix *Index) awaitRoom(most int) {
	for {
		ix.mu.Lock()
		if ix.pendingN < most {
			ix.mu.Unlock()
			return
		}
		if ix.taken == nil {
			ix.taken = make(chan struct{})
		}
		taken := ix.taken
		ix.mu.Unlock()
		<-taken
	}
}

// tookPendingLocked wakes the writers waiting for room; called with ix.mu held by a
// refresh that has taken the pending operations.
func (ix *Index) tookPendingLocked() {
	if ix.taken != nil {
		close(ix.taken)
		ix.taken = nil
	}
}
