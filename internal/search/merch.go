package search

import (
	"context"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/merch"
	"github.com/aislehq/aisle/internal/searchquery"
)

// How a search applies the index's merchandising rules (internal/merch): the rules that
// match its query rewrite the query, and add filters, hidden records, boosts and buries
// to its plan; the records they promote are fetched by a second search (the pinned
// search, which the search's filters apply to, sent in the organic search's round) and
// placed at their positions on the page, the organic hits around them (merch.PinnedPage, in
// the job's rounds: jobs.go).

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

// merchandise finds the rules that apply to req (as over sees them), unless it turns
// them off, and returns req with its query as they rewrite it.
func (s *Service) merchandise(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, schema searchquery.Schema, over *merch.Overlay) (searchquery.Request, merch.Outcome, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok || req.EnableRules != nil && !*req.EnableRules {
		return req, merch.Outcome{Query: req.Q, RenderingContent: searchquery.DefaultRendering(access.Settings)}, nil
	}
	out, err := s.rules.Apply(ctx, merch.Target{Names: names, Settings: access.Settings}, schema,
		merch.Search{Query: req.Q, Filters: req.Filters, FacetFilters: req.FacetFilters, Contexts: req.RuleContexts, Overlay: over})
	if err != nil {
		return req, merch.Outcome{}, err
	}
	req.Q = out.Query
	return req, out, nil
}
