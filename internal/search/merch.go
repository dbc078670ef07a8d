package search

import (
	"context"
	"errors"
	"time"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// How a search applies the index's merchandising rules (internal/merch): the rules that
// match its query rewrite the query, and add filters, hidden records, boosts and buries
// to its plan; the records they promote are fetched by a second search (the pinned
// search, which the search's filters apply to) and placed at their positions on the
// page, the organic hits around them (merch.Layout).

// Option configures a Service.
type Option func(*options)

type options struct {
	clock func() time.Time
}

// WithClock tells the time rules' validity windows are compared with (default
// time.Now): tests move it instead of waiting.
func WithClock(clock func() time.Time) Option {
	return func(o *options) { o.clock = clock }
}

// Rules returns the merchandising rules service searches apply.
func (s *Service) Rules() *merch.Service { return s.rules }

// merchandise finds the rules that apply to req, unless it turns them off, and returns
// req with its query as they rewrite it.
func (s *Service) merchandise(ctx context.Context, alias string, rules searchquery.Rules, req searchquery.Request, schema searchquery.Schema) (searchquery.Request, merch.Outcome, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok || req.EnableRules != nil && !*req.EnableRules {
		return req, merch.Outcome{Query: req.Q}, nil
	}
	out, err := s.rules.Apply(ctx, merch.Target{Names: names, Settings: rules.Settings}, schema, req.Q)
	if err != nil {
		return req, merch.Outcome{}, err
	}
	req.Q = out.Query
	return req, out, nil
}

// runAll runs jobs: those without promoted records in shared rounds, each of the others
// on its own, as placing promoted records takes rounds of its own.
func (s *Service) runAll(ctx context.Context, jobs []*job) {
	var rounds []*job
	for _, j := range jobs {
		if len(j.merch.Pins) == 0 {
			rounds = append(rounds, j)
			continue
		}
		s.runPinnedJob(ctx, j)
	}
	s.runJobs(ctx, rounds)
}

// runPinnedJob runs a search whose rules promote records; one that matches nothing
// organically is planned again without a word, as runJobs does.
func (s *Service) runPinnedJob(ctx context.Context, j *job) {
	for {
		build := func(m *searchquery.Merch) (searchquery.Plan, error) { return j.build(j.drop, m) }
		res, organic, err := s.runPinned(ctx, j.alias, j.plan, j.merch, build)
		if err != nil || organic > 0 || !j.plan.Retry {
			j.finish(res, err)
			return
		}
		if err := j.replan(j.drop + 1); err != nil {
			j.finish(searchquery.Response{}, err)
			return
		}
	}
}

// runPlan runs one plan as a job of its own, grouping rounds included, without retries.
func (s *Service) runPlan(ctx context.Context, alias string, plan searchquery.Plan) (searchquery.Response, error) {
	fixed := plan
	fixed.Retry = false
	j := &job{alias: alias, plan: fixed, bodies: [][]byte{plan.Body}}
	s.runJobs(ctx, []*job{j})
	return j.res, j.err
}

// runPinned fetches the promoted records the search's filters let through, then the
// organic hits of the page's other places; the page's places are known once the organic
// total is, so a page near the end of the list is fetched a second time when promoted
// records move up to follow the last organic hit.
func (s *Service) runPinned(ctx context.Context, alias string, plan searchquery.Plan, out merch.Outcome, build func(*searchquery.Merch) (searchquery.Plan, error)) (searchquery.Response, int64, error) {
	pinned, err := s.pinned(ctx, alias, plan)
	if err != nil {
		return searchquery.Response{}, 0, err
	}
	placed := merch.Place(out.Pins, func(id string) bool { _, ok := pinned[id]; return ok })
	lay := merch.Layout(placed, merch.Unknown, plan.Offset, plan.Limit)
	for {
		m := *out.Merch
		m.Window = &searchquery.Window{From: lay.From, Size: lay.Size}
		p, err := build(&m)
		if err != nil {
			return searchquery.Response{}, 0, err
		}
		res, err := s.runPlan(ctx, alias, p)
		if err != nil {
			return searchquery.Response{}, 0, err
		}
		next := merch.Layout(placed, res.Total, plan.Offset, plan.Limit)
		if next.From == lay.From && next.Size == lay.Size {
			return mergePage(res, next, pinned, len(placed)), res.Total, nil
		}
		lay = next
	}
}

// pinned runs a plan's pinned search: the promoted records by objectID.
func (s *Service) pinned(ctx context.Context, alias string, plan searchquery.Plan) (map[string]searchquery.Hit, error) {
	raw, err := s.run(ctx, alias, plan.Pinned)
	if errors.Is(err, es.ErrNotFound) {
		return map[string]searchquery.Hit{}, nil
	}
	if err != nil {
		return nil, err
	}
	return searchquery.ShapePinned(plan, raw)
}

// mergePage puts the promoted records at their places of the page and the organic hits,
// in order, at the others; total counts the promoted records shown in any page.
func mergePage(res searchquery.Response, lay merch.PageLayout, pinned map[string]searchquery.Hit, promoted int) searchquery.Response {
	organic := res.Hits
	hits := make([]searchquery.Hit, 0, res.Limit)
	for i := 0; i < res.Limit; i++ {
		if id, ok := lay.Pinned[i]; ok {
			hits = append(hits, pinned[id])
			continue
		}
		if len(organic) > 0 {
			hits, organic = append(hits, organic[0]), organic[1:]
		}
	}
	res.Hits = hits
	res.Total += int64(promoted)
	return res
}
