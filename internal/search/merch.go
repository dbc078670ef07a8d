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
// search, which the search's filters apply to, sent in the organic search's round) and
// placed at their positions on the page, the organic hits around them (merch.Layout).

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
func (s *Service) merchandise(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, schema searchquery.Schema) (searchquery.Request, merch.Outcome, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok || req.EnableRules != nil && !*req.EnableRules {
		return req, merch.Outcome{Query: req.Q, RenderingContent: searchquery.DefaultRendering(access.Settings)}, nil
	}
	out, err := s.rules.Apply(ctx, merch.Target{Names: names, Settings: access.Settings}, schema,
		merch.Search{Query: req.Q, Filters: req.Filters, FacetFilters: req.FacetFilters, Contexts: req.RuleContexts})
	if err != nil {
		return req, merch.Outcome{}, err
	}
	req.Q = out.Query
	return req, out, nil
}

// runAll runs jobs in shared rounds until every one is done; a search whose rules
// promote records runs as a pinnedJob.
func (s *Service) runAll(ctx context.Context, jobs []*job) {
	rounds := make([]roundJob, len(jobs))
	for i, j := range jobs {
		rounds[i] = roundJob(j)
		if len(j.merch.Pins) > 0 {
			rounds[i] = newPinnedJob(j)
		}
	}
	s.runJobs(ctx, rounds...)
}

// windowJob plans the organic search of the window w, as a job of its own.
func windowJob(alias string, out merch.Outcome, w searchquery.Window, build func(*searchquery.Merch) (searchquery.Plan, error)) (*job, error) {
	m := *out.Merch
	m.Window = &w
	plan, err := build(&m)
	if err != nil {
		return nil, err
	}
	return organicJob(alias, plan), nil
}

// organicJob is plan's organic search as a job of its own: grouping rounds included,
// without retries.
func organicJob(alias string, plan searchquery.Plan) *job {
	plan.Retry = false
	return &job{alias: alias, plan: plan, bodies: [][]byte{plan.Body}}
}

// pinnedFetch is a plan's pinned search (the promoted records by objectID) as a job of
// a round: it takes one.
type pinnedFetch struct {
	alias string
	plan  searchquery.Plan
	done  bool
	hits  map[string]searchquery.Hit
	err   error
}

func (f *pinnedFetch) index() string { return f.alias }

func (f *pinnedFetch) pending() [][]byte {
	if f.done {
		return nil
	}
	return [][]byte{f.plan.Pinned}
}

func (f *pinnedFetch) take(answers [][]byte, errs []error) {
	f.done = true
	switch {
	case errors.Is(errs[0], es.ErrNotFound):
		f.hits = map[string]searchquery.Hit{}
	case errs[0] != nil:
		f.err = errs[0]
	default:
		f.hits, f.err = searchquery.ShapePinned(f.plan, answers[0])
	}
}
