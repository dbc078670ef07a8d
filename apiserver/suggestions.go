package apiserver

import (
	"context"
	"slices"

	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/relevance"
	"github.com/aislehq/aisle/internal/search"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/searchquery"
)

// categoryValues is how many values of the category facet a suggestion carries.
const categoryValues = 3

// suggestionRoutes declares query suggestions, keyed and public.
func (s *Server) suggestionRoutes(idx keyedGroup) {
	idx.add(fiber.MethodGet, "/suggestions", searchScope, s.needSuggestions, s.getSuggestions)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Get("/suggestions", s.publicIndex, s.publicLimit, s.needSuggestions, s.publicSuggestions)
}

// needSuggestions answers 503 when the server runs without a search backend.
func (s *Server) needSuggestions(c *fiber.Ctx) error {
	if s.searches == nil || s.search == nil {
		return errNoBackend
	}
	return c.Next()
}

// getSuggestions answers GET /suggestions; categories come from the first facet field.
func (s *Server) getSuggestions(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	return s.suggest(c, idx, searchquery.KeyedAccess(idx.Spec.Settings), firstOf(idx.Spec.Settings.FacetFields))
}

// publicSuggestions answers the public twin; categories come from the first facet the
// public policy allows.
func (s *Server) publicSuggestions(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	return s.suggest(c, idx, publicAccess(idx), firstOf(EffectivePolicy(idx).AllowedFacets))
}

func firstOf(fields []searchv1alpha1.FieldPath) string {
	if len(fields) == 0 {
		return ""
	}
	return string(fields[0])
}

// suggest binds the parameters, picks the suggestions from the index's search log
// and, when asked, adds the top values of field among each one's hits.
func (s *Server) suggest(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access, field string) error {
	req, err := searchlog.ParseRequest(c.Query("q"), c.Query("limit"), c.Query("categories"))
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	names := esnames.For(idx.Namespace, idx.Name)
	candidates, err := s.searches.Candidates(ctx, names)
	if err != nil {
		return err
	}
	setting := relevance.SuggestionsOf(idx.Spec.Settings)
	m := searchquery.NewSuggestionMatcher(req.Q, idx.Spec.Settings, setting.Exclude)
	list := searchlog.Suggest(candidates, int64(*setting.MinDays), req.Limit, m)
	if req.Categories && field != "" {
		s.addCategories(ctx, names.Alias(), access, field, list)
	}
	return c.JSON(fiber.Map{"suggestions": list})
}

// addCategories runs each suggestion as a search for the facet values of field, in one
// multi-search; a suggestion whose search fails goes without categories.
func (s *Server) addCategories(ctx context.Context, alias string, access searchquery.Access, field string, list []searchlog.Suggestion) {
	one := 1
	queries := make([]search.Query, len(list))
	for i, sg := range list {
		queries[i] = search.Query{Alias: alias, Access: access, Request: searchquery.Request{
			Q: sg.Query, Limit: &one, Facets: []string{field}, MaxValuesPerFacet: categoryValues}}
	}
	for i, r := range s.search.MultiSearch(ctx, queries) {
		if r.Err == nil {
			list[i].Categories = slices.Clone(r.Response.Facets[field])
		}
	}
}
