package conformance

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/aislehq/aisle/test/conformance/yamlrest"
)

// Entry leaves out one test, or some steps of it, with the reason.
type Entry struct {
	// File is "<folder>/<file>.yml".
	File string
	// Test is the test section's name, or "setup"/"teardown".
	Test string
	// Step is empty to skip the whole test; otherwise it selects steps as
	// "<operator> <path>" (assertions) or "do <api>".
	Step string
	// Lines, when set, limits the entry to steps starting within these
	// lines (inclusive) of the unmodified upstream file.
	Lines  [2]int
	Reason string
}

// Skips implements yamlrest.SkipList over entries and remembers which
// entries were used, so stale entries can be reported.
type Skips struct {
	entries []Entry
	mu      sync.Mutex
	used    map[int]bool
}

// NewSkips indexes entries.
func NewSkips(entries []Entry) *Skips {
	return &Skips{entries: entries, used: map[int]bool{}}
}

// Skip returns the reason when an entry covers the test or step.
func (s *Skips) Skip(file, test string, step *yamlrest.Step) string {
	for i, e := range s.entries {
		if e.File != file || e.Test != test {
			continue
		}
		if e.covers(step) {
			s.mu.Lock()
			s.used[i] = true
			s.mu.Unlock()
			return e.Reason
		}
	}
	return ""
}

func (e Entry) covers(step *yamlrest.Step) bool {
	whole := e.Step == "" && e.Lines == [2]int{}
	if step == nil || whole {
		return step == nil && whole
	}
	if e.Step != "" && !selects(e.Step, *step) {
		return false
	}
	return e.Lines == [2]int{} || (step.Line >= e.Lines[0] && step.Line <= e.Lines[1])
}

// Unused lists the entries that matched nothing, e.g. after a test file
// changed.
func (s *Skips) Unused() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Entry
	for i, e := range s.entries {
		if !s.used[i] {
			out = append(out, e)
		}
	}
	return out
}

// StepKeys are the selectors a step answers to: "do <api>" for a call,
// "<op> <path>" for every path an assertion or set names.
func StepKeys(s yamlrest.Step) []string {
	switch a := s.Arg.(type) {
	case string:
		return []string{s.Op + " " + a}
	case map[string]any:
		var keys []string
		for k := range a {
			if s.Op == "do" && isDoOption(k) {
				continue
			}
			keys = append(keys, s.Op+" "+k)
		}
		sort.Strings(keys)
		return keys
	}
	return []string{s.Op}
}

func isDoOption(k string) bool {
	switch k {
	case "catch", "headers", "warnings", "warnings_regex", "allowed_warnings", "allowed_warnings_regex", "node_selector":
		return true
	}
	return false
}

func selects(sel string, s yamlrest.Step) bool {
	for _, k := range StepKeys(s) {
		if k == sel {
			return true
		}
	}
	return false
}

// Validate checks that every entry has a reason and a known operator.
func Validate(entries []Entry) error {
	var bad []string
	for _, e := range entries {
		if e.File == "" || e.Test == "" || strings.TrimSpace(e.Reason) == "" {
			bad = append(bad, fmt.Sprintf("%+v", e))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("skip entries need file, test and reason: %s", strings.Join(bad, "; "))
	}
	return nil
}

// Stale returns the entries that match no test or step of files, checked
// statically (no server needed), so a typo in the list fails fast.
func Stale(files []*yamlrest.File, entries []Entry) []Entry {
	s := NewSkips(entries)
	for _, f := range files {
		for _, sec := range append([]*yamlrest.Section{f.Setup, f.Teardown}, f.Tests...) {
			if sec == nil {
				continue
			}
			s.Skip(f.Name, sec.Name, nil)
			for i := range sec.Steps {
				s.Skip(f.Name, sec.Name, &sec.Steps[i])
			}
		}
	}
	return s.Unused()
}
