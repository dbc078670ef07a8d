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

// runMerch runs the plan build makes with the rules' changes, places the promoted
// records, and returns the response with the organic total (what the retries of
// matchingStrategy all look at) and whether a retry may match more.
func (s *Service) runMerch(ctx context.Context, alias string, out merch.Outcome, build func(*searchquery.Merch) (searchquery.Plan, error)) (searchquery.Response, int64, bool, error) {
	plan, err := build(out.Merch)
	if err != nil {
		return searchquery.Response{}, 0, false, err
	}
	var res searchquery.Response
	var organic int64
	if len(out.Pins) == 0 {
		res, err = s.runPlan(ctx, alias, plan)
		organic = res.Total
	} else {
		res, organic, err = s.runPinned(ctx, alias, plan, out, build)
	}
	if err != nil {
		return searchquery.Response{}, 0, false, err
	}
	res.AppliedRules, res.UserData = out.Applied, out.UserData
	return res, organic, plan.Retry, nil
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
