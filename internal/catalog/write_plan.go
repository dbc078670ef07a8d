package catalog

import (
	"context"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
	"golang.org/x/sync/errgroup"

	"github.com/aislehq/aisle/internal/es"
)

// Step 2 of a write, the plan: a write that would leave the workspace with more records
// than its plan allows is refused (ErrPlanLimit) before it gets a revision.

// PlanAllows is the pure plan decision: after the write the workspace holds
// others + thisIndex records.
func PlanAllows(maxRecords, others, thisIndex int64) error {
	if maxRecords <= 0 || others+thisIndex <= maxRecords {
		return nil
	}
	return fmt.Errorf("%w: the workspace plan allows %d records; this write would make %d",
		ErrPlanLimit, maxRecords, others+thisIndex)
}

// planCounts counts the records of this index and of the workspace's other indexes, all
// at once. This index's count is not counted when the ticket holds the reservation of a
// write of this replica whose count is known (write_count.go).
func (s *Service) planCounts(ctx context.Context, t Target, tk ticket) (current, others int64, err error) {
	current, known, _ := s.countBefore(t.Names.Alias(), tk.lease, tk.usable, tk.alone)
	aliases := t.OtherAliases
	if !known {
		aliases = append([]string{t.Names.Alias()}, aliases...)
	}
	n, err := s.countAll(ctx, aliases)
	if err != nil {
		return 0, 0, err
	}
	if !known {
		current, n = n[0], n[1:]
	}
	for _, c := range n {
		others += c
	}
	return current, others, nil
}

// countAll counts the records behind each alias, a few at once.
func (s *Service) countAll(ctx context.Context, aliases []string) ([]int64, error) {
	n := make([]int64, len(aliases))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(planCountWorkers)
	for i, alias := range aliases {
		g.Go(func() (err error) {
			n[i], err = s.Count(gctx, alias)
			return err
		})
	}
	return n, g.Wait()
}

// planCountWorkers bounds the counts a plan check runs at once.
const planCountWorkers = 8

// checkPlanUpsert refuses an upsert whose new records would exceed the plan. Existing
// records are replaced in place and do not count twice.
func (s *Service) checkPlanUpsert(ctx context.Context, t Target, tk ticket, records []Record) error {
	if t.MaxRecords <= 0 {
		return nil
	}
	current, others, err := s.planCounts(ctx, t, tk)
	if err != nil {
		return err
	}
	ids := uniqueIDs(records)
	if others+current+int64(len(ids)) <= t.MaxRecords {
		return nil
	}
	existing, err := s.countIDs(ctx, t.Names.Alias(), ids)
	if err != nil {
		return err
	}
	return PlanAllows(t.MaxRecords, others, current+int64(len(ids))-existing)
}

// checkPlanTotal refuses a write that leaves this index with n records over the plan.
func (s *Service) CheckPlanTotal(ctx context.Context, t Target, n int64) error {
	if t.MaxRecords <= 0 {
		return nil
	}
	counts, err := s.countAll(ctx, t.OtherAliases)
	if err != nil {
		return err
	}
	var others int64
	for _, c := range counts {
		others += c
	}
	return PlanAllows(t.MaxRecords, others, n)
}

// checkPlanCreate refuses a conditional create of one new record over the plan.
func (s *Service) checkPlanCreate(ctx context.Context, t Target, tk ticket) error {
	if t.MaxRecords <= 0 {
		return nil
	}
	current, others, err := s.planCounts(ctx, t, tk)
	if err != nil {
		return err
	}
	return PlanAllows(t.MaxRecords, others, current+1)
}

func uniqueIDs(records []Record) []string {
	seen := make(map[string]struct{}, len(records))
	out := make([]string, 0, len(records))
	for _, r := range records {
		if _, ok := seen[r.ID]; !ok {
			seen[r.ID] = struct{}{}
			out = append(out, r.ID)
		}
	}
	return out
}

func (s *Service) countIDs(ctx context.Context, alias string, ids []string) (int64, error) {
	res, err := s.es.Core.Count().Index(alias).Query(&types.Query{Ids: &types.IdsQuery{Values: ids}}).Do(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting existing records of %s: %w", alias, es.Classify(err))
	}
	return res.Count, nil
}
