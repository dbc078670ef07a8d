package apiserver

import (
	"context"

	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// needSearch answers 503 when the server runs without a search backend.
func (s *Server) needSearch(c *fiber.Ctx) error {
	if s.search == nil {
		return errNoBackend
	}
	return c.Next()
}

// postSearch answers POST /search, for a search key or one of its secured keys.
func (s *Server) postSearch(c *fiber.Ctx) error {
	t := tenantFrom(c.UserContext())
	var req searchquery.Request
	if err := strictjson.Decode(c.Body(), &req); err != nil {
		return err
	}
	return s.runSearch(c, t.index, searchAccess(t), req, false)
}

// runSearch counts the search against the workspace's plan, runs it, answers and
// records it in the search log (keyed or public).
func (s *Server) runSearch(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access, req searchquery.Request, public bool) error {
	ctx := c.UserContext()
	if err := s.countSearch(ctx, idx); err != nil {
		return err
	}
	req, fallback := s.embedQuery(ctx, idx, req)
	res, err := s.search.Search(ctx, esnames.For(idx.Namespace, idx.Name).Alias(), access, req)
	if err != nil {
		return err
	}
	res.SemanticFallback = fallback
	if err := c.JSON(res); err != nil {
		return err
	}
	s.logSearch(idx, req, res, public)
	return nil
}

// countSearch counts one search of idx against its workspace's monthly plan:
// errSearchQuota once the month's searches are used up.
func (s *Server) countSearch(ctx context.Context, idx *searchv1alpha1.SearchIndex) error {
	if s.usage == nil {
		return nil
	}
	ws, err := s.registry.Workspace(ctx, idx.Namespace)
	if err != nil {
		return err
	}
	allowed, err := s.usage.Allow(ctx, ws.Name, ws.Spec.Plan.MonthlySearches)
	if err != nil {
		return err
	}
	if !allowed {
		return errSearchQuota
	}
	return nil
}

// getFields answers GET /fields.
func (s *Server) getFields(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	fields, err := s.search.Fields(c.UserContext(), esnames.For(idx.Namespace, idx.Name).Alias())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"fields": fields})
}
