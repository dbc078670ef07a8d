package merch

import (
	"context"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
)

// ForSearch is what the rules of the index behind alias change in a search of req (as
// over sees them; nil: the index's own), and nothing when req turns them off or alias
// names no SearchIndex: the query to search, the filters, hides, boosts, buries and pins,
// and what the answer carries (the rules applied, their userData, the renderingContent).
// schema is the records' mapping the rules' filters are built against.
func (s *Service) ForSearch(ctx context.Context, alias string, access searchquery.Access, req searchquery.Request, schema searchquery.Schema, over *Overlay) (Outcome, error) {
	names, ok := esnames.FromAlias(alias)
	if !ok || req.EnableRules != nil && !*req.EnableRules {
		return Outcome{Query: req.Q, RenderingContent: searchquery.DefaultRendering(access.Settings)}, nil
	}
	return s.Apply(ctx, Target{Names: names, Settings: access.Settings}, schema,
		Search{Query: req.Q, Filters: req.Filters, FacetFilters: req.FacetFilters, Contexts: req.RuleContexts, Overlay: over})
}
