package search

import (
	"context"
	"errors"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// SearchFacetValues runs a facet value search of field under access against the index
// behind alias. Invalid requests fail with searchquery.ErrInvalid. As a search, a q that
// matches nothing with all its words (matchingStrategy all) drops words from its end.
func (s *Service) SearchFacetValues(ctx context.Context, alias string, access searchquery.Access, field string, req searchquery.FacetSearchRequest) (searchquery.FacetSearchResponse, error) {
	schema, err := s.Schema(ctx, alias)
	if err != nil {
		return searchquery.FacetSearchResponse{}, err
	}
	for drop := 0; ; {
		plan, err := searchquery.BuildFacetSearch(req, field, access, schema, drop)
		if err != nil {
			return searchquery.FacetSearchResponse{}, err
		}
		raw, err := s.run(ctx, alias, plan.Body)
		if errors.Is(err, es.ErrNotFound) {
			raw, err = emptyAnswer, nil
		}
		if err != nil {
			return searchquery.FacetSearchResponse{}, err
		}
		next, again := searchquery.NextDrop(plan.Retry, !searchquery.MatchesNothing(raw), drop)
		if !again {
			return searchquery.ShapeFacetSearch(plan, raw)
		}
		drop = next
	}
}
