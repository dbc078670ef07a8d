package search

import (
	"context"
	"errors"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// SearchFacetValues runs a facet value search of field under access against the index
// behind alias. Invalid requests fail with searchquery.ErrInvalid. As a search, a q that
// matches nothing with all its words (matchingStrategy all) drops words from its end
// (job.advance, the retry an API search takes).
func (s *Service) SearchFacetValues(ctx context.Context, alias string, access searchquery.Access, field string, req searchquery.FacetSearchRequest) (searchquery.FacetSearchResponse, error) {
	schema, err := s.Schema(ctx, alias)
	if err != nil {
		return searchquery.FacetSearchResponse{}, err
	}
	j, err := newRetrying(alias, 0, func(drop int) (*facetTry, error) {
		plan, err := searchquery.BuildFacetSearch(req, field, access, schema, drop)
		return &facetTry{plan: plan}, err
	})
	if err != nil {
		return searchquery.FacetSearchResponse{}, err
	}
	drive(ctx, s, []*job[*facetTry]{j})
	if j.err != nil {
		return searchquery.FacetSearchResponse{}, j.err
	}
	return j.cur.res, nil
}

// facetTry is a facet value search tried without some words of its q: one round.
type facetTry struct {
	plan searchquery.FacetSearchPlan
	// raw is the answer it settled on, res its values once kept.
	raw []byte
	res searchquery.FacetSearchResponse
}

func (t *facetTry) round() [][]byte {
	if t.raw != nil {
		return nil
	}
	return [][]byte{t.plan.Body}
}

// take reads the answer: an index without a physical index has no values.
func (t *facetTry) take(answers [][]byte, errs []error) (verdict, error) {
	raw, err := answers[0], errs[0]
	if errors.Is(err, es.ErrNotFound) {
		raw, err = emptyAnswer, nil
	}
	if err != nil {
		return verdict{}, err
	}
	t.raw = raw
	return verdict{settled: true, matched: !searchquery.MatchesNothing(raw), retry: t.plan.Retry}, nil
}

// keep matches and counts the values of the answer it settled on.
func (t *facetTry) keep() (err error) {
	t.res, err = searchquery.ShapeFacetSearch(t.plan, t.raw)
	return err
}
