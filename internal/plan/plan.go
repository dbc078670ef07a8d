// Package plan decides which SearchIndexes of a workspace fit its plan.
package plan

import (
	"sort"
	"time"
)

// Entry is one SearchIndex competing for the workspace's index slots.
type Entry struct {
	Name    string
	Created time.Time
}

// Admitted returns the names of the entries within maxIndexes: the oldest by creation
// time win, ties broken by name, so the decision is stable however often it is made.
// Entries beyond the limit keep whatever data they have; they only lose readiness.
func Admitted(entries []Entry, maxIndexes int) map[string]bool {
	sorted := append([]Entry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool {
		if !sorted[i].Created.Equal(sorted[j].Created) {
			return sorted[i].Created.Before(sorted[j].Created)
		}
		return sorted[i].Name < sorted[j].Name
	})
	out := make(map[string]bool, len(sorted))
	for i, e := range sorted {
		if i >= maxIndexes {
			break
		}
		out[e.Name] = true
	}
	return out
}
