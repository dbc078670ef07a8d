package engine

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"
)

// The Go heap limit (GOMEMLIMIT) bounds only the memory the Go runtime allocates. The
// engine's segments are mapped files, and the pages of them it reads count in its
// resident memory as well, as do its binary's: with GOMEMLIMIT=1GiB, indexing 100,000
// products peaked at 982 MiB anonymous and 88 MiB file-backed. A pod's limit and a
// budget like the side-by-side benchmark's count both, so the engine takes the file-backed
// part out of its heap limit while it runs.

// holdInterval is how often the heap limit follows the file-backed memory: it changes
// with refreshes and merges, every second or so under indexing.
const holdInterval = 100 * time.Millisecond

// ResidentBudget is the resident memory the engine keeps under: GOMEMLIMIT when the
// environment sets it, else the memory TuneGC took its heap limit from (the cgroup's limit,
// or the machine's). ok is false when there is none (AUTOMEMLIMIT=off, or no memory found).
func ResidentBudget() (budget int64, ok bool) {
	return residentBudget(memoryFound)
}

func residentBudget(memory memlimit.Provider) (int64, bool) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return debug.SetMemoryLimit(-1), true
	}
	if os.Getenv("AUTOMEMLIMIT") == "off" {
		return 0, false
	}
	total, err := memory()
	if err != nil || total == 0 {
		return 0, false
	}
	return int64(min(total, uint64(1<<63-1))), true
}

// HoldResident lowers the Go heap limit, until ctx ends, by the file-backed memory the
// process holds resident, so that the two stay under budget; the limit never rises above
// the one in force when it starts, nor falls below half the budget (the heap the engine
// needs to index, whatever the catalog's size).
func HoldResident(ctx context.Context, budget int64) {
	base := debug.SetMemoryLimit(-1)
	set := base
	t := time.NewTicker(holdInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		file, ok := residentFileBytes()
		if !ok {
			return
		}
		if l := heapLimitFor(budget, base, file); l > set+1<<20 || l < set-1<<20 {
			debug.SetMemoryLimit(l)
			set = l
		}
	}
}

// heapLimitFor is the Go heap limit that keeps the heap and file bytes of resident memory
// under budget, with a margin of 1/16 of it: for the runtime's own memory and its
// overshoot between collections, and for the file pages searches make resident between
// two ticks. With 1/64, one million documents in 2 GiB peaked at 2,043-2,099 MiB of RSS
// (the anonymous part at the heap limit, the files grown since the last tick).
func heapLimitFor(budget, base, file int64) int64 {
	return max(budget/2, min(base, budget-file-budget/16))
}

// residentFileBytes is the process's resident file-backed memory (RssFile in
// /proc/self/status); ok is false where that is not known.
func residentFileBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		if rest, found := bytes.CutPrefix(s.Bytes(), []byte("RssFile:")); found {
			kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}
