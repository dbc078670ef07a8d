package conformance

import (
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// Tally counts results per test folder.
type Tally struct {
	mu           sync.Mutex
	folders      map[string]*[3]int
	skippedSteps int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{folders: map[string]*[3]int{}} }

// Add records one test section's result.
func (t *Tally) Add(folder string, r yamlrest.Result) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c, ok := t.folders[folder]
	if !ok {
		c = &[3]int{}
		t.folders[folder] = c
	}
	c[r.Status]++
	t.skippedSteps += len(r.SkippedSteps)
}

// Totals returns passed, failed and skipped over all folders.
func (t *Tally) Totals() (passed, failed, skipped int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range t.folders {
		passed += c[yamlrest.Passed]
		failed += c[yamlrest.Failed]
		skipped += c[yamlrest.Skipped]
	}
	return
}

// Print writes the per-folder table and the total line CI reads:
// "N passed, N failed, N skipped".
func (t *Tally) Print(w io.Writer, skipEntries int) {
	t.mu.Lock()
	names := make([]string, 0, len(t.folders))
	for n := range t.folders {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\n%-26s %7s %7s %7s\n", "folder", "passed", "failed", "skipped")
	for _, n := range names {
		c := t.folders[n]
		fmt.Fprintf(w, "%-26s %7d %7d %7d\n", n, c[yamlrest.Passed], c[yamlrest.Failed], c[yamlrest.Skipped])
	}
	steps := t.skippedSteps
	t.mu.Unlock()
	p, f, s := t.Totals()
	fmt.Fprintf(w, "skip-list entries: %d (steps left out of passing/failing tests: %d)\n", skipEntries, steps)
	if run := p + f; run > 0 {
		fmt.Fprintf(w, "pass rate of tests not skipped: %.1f%%\n", 100*float64(p)/float64(run))
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", p, f, s)
}
