package merch

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/history"
)

// Every write of an index's rules keeps the whole rule set it left as a version of the
// rules' history (internal/history, in the control index): a restore is then one
// replacement, whatever happened since. Keeping the whole set costs a read of the rules
// per write, as a replica's cache does after each write anyway.

// maxSummaryIDs bounds the objectIDs a version's summary names.
const maxSummaryIDs = 5

// History lists the versions of the index's rules, newest first.
func (s *Service) History(ctx context.Context, names esnames.Index) ([]history.Version, error) {
	return s.history.List(ctx, names)
}

// Restore puts back version n of the rules, as a replacement of its own (itself a
// version), and returns the new version's number: history.ErrVersionNotFound when the
// history does not hold it, ErrInvalid when those rules no longer fit the index.
func (s *Service) Restore(ctx context.Context, t Target, n int64) (int64, error) {
	var rules []Rule
	if _, err := s.history.State(ctx, t.Names, n, &rules); err != nil {
		return 0, err
	}
	return s.replace(ctx, t, rules, fmt.Sprintf("restored version %d (%s)", n, countRules(len(rules))))
}

// stateBefore is the rule set before a write when the history is empty (its version 1),
// else nil: only the first write reads it.
func (s *Service) stateBefore(ctx context.Context, t Target) (any, error) {
	empty, err := s.history.Empty(ctx, t.Names)
	if err != nil || !empty {
		return nil, err
	}
	return s.ruleSet(ctx, t.Names)
}

// ruleSet reads every rule of the index, by objectID.
func (s *Service) ruleSet(ctx context.Context, names esnames.Index) ([]Rule, error) {
	_, docs, err := s.load(ctx, names)
	if err != nil {
		return nil, err
	}
	out := make([]Rule, len(docs))
	for i, d := range docs {
		out[i] = d.Rule
	}
	return out, nil
}

// record keeps the rules as they are after a write of t as a version; state is that
// set when the writer knows it, nil to read it.
func (s *Service) record(ctx context.Context, t Target, summary string, state []Rule, before any) (int64, error) {
	if state == nil {
		var err error
		if state, err = s.ruleSet(ctx, t.Names); err != nil {
			return 0, fmt.Errorf("the rules were written, but not kept in their history: %w", err)
		}
	}
	n, err := s.history.Record(ctx, t.Names, history.Change{By: t.By, Summary: summary, State: state, Before: before})
	if err != nil {
		return 0, fmt.Errorf("the rules were written, but not kept in their history: %w", err)
	}
	return n, nil
}

// byObjectID is rules in the order reads list them.
func byObjectID(rules []Rule) []Rule {
	out := slices.Clone(rules)
	if out == nil {
		out = []Rule{}
	}
	slices.SortFunc(out, func(a, b Rule) int { return cmp.Compare(a.ObjectID, b.ObjectID) })
	return out
}

// putSummary says what a Put wrote.
func putSummary(rules []Rule) string {
	ids := make([]string, 0, maxSummaryIDs)
	for _, r := range rules[:min(len(rules), maxSummaryIDs)] {
		ids = append(ids, r.ObjectID)
	}
	more := ""
	if len(rules) > maxSummaryIDs {
		more = fmt.Sprintf(" and %d more", len(rules)-maxSummaryIDs)
	}
	switch len(rules) {
	case 0:
		return "put no rule"
	case 1:
		return "put rule " + ids[0]
	}
	return fmt.Sprintf("put %d rules: %s%s", len(rules), strings.Join(ids, ", "), more)
}

func countRules(n int) string {
	if n == 1 {
		return "1 rule"
	}
	return fmt.Sprintf("%d rules", n)
}
