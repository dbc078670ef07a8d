package apiserver

import (
	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/tenancy"
)

// insightRoutes declares the reading side of events: the Events page's statistics and
// Bought together, keyed and public.
func (s *Server) insightRoutes(idx keyedGroup) {
	idx.add(fiber.MethodGet, "/lists/together/:objectID", searchScope, s.needInsights, s.getTogether)
	idx.add(fiber.MethodGet, "/events/stats", tenancy.Either, s.needInsights, s.getStats)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Get("/lists/together/:objectID", s.publicIndex, s.publicLimit, s.needInsights, s.publicTogether)
}

// needInsights answers 503 when the server runs without a search backend.
func (s *Server) needInsights(c *fiber.Ctx) error {
	if s.insights == nil {
		return errNoBackend
	}
	return c.Next()
}

// getStats answers GET /events/stats?from&to.
func (s *Server) getStats(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	p, err := events.ParsePeriod(c.Query("from"), c.Query("to"), s.insights.Now())
	if err != nil {
		return err
	}
	names := esnames.For(idx.Namespace, idx.Name)
	stats, err := s.insights.Stats(c.UserContext(), names, p)
	if err != nil {
		return err
	}
	body := statsBody{Stats: stats}
	if s.searches != nil {
		searches, err := s.searches.Stats(c.UserContext(), names, p)
		if err != nil {
			return err
		}
		body.Searches = &searches
	}
	return c.JSON(body)
}

// statsBody is the answer of GET /events/stats: the events' figures and the Searches
// section read from the search log.
type statsBody struct {
	events.Stats
	Searches *searchlog.Stats `json:"searches,omitempty"`
}

// getTogether answers GET /lists/together/{objectID}?limit=N with whole records.
func (s *Server) getTogether(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	return s.together(c, idx, events.MaxTogetherLimit, events.MaxTogetherLimit, nil)
}

// publicTogether answers the public twin under the index's public policy: only the
// retrievable fields, at most the policy's hit cap.
func (s *Server) publicTogether(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	policy := EffectivePolicy(idx)
	fields := make([]string, len(policy.RetrievableFields))
	for i, f := range policy.RetrievableFields {
		fields[i] = string(f)
	}
	return s.together(c, idx, searchquery.MaxPublicLimit, int(policy.MaxHits), fields)
}

// together binds objectID and limit (1 to maxLimit, default 10) and answers at most
// hitCap products, as public search caps its hits.
func (s *Server) together(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, maxLimit, hitCap int, fields []string) error {
	id, err := objectIDParam(c)
	if err != nil {
		return err
	}
	limit, err := events.ParseLimit(c.Query("limit"), events.DefaultTogetherLimit, maxLimit)
	if err != nil {
		return err
	}
	req := events.TogetherRequest{ObjectID: id, Limit: min(limit, hitCap), Fields: fields}
	list, err := s.insights.Together(c.UserContext(), esnames.For(idx.Namespace, idx.Name), req)
	if err != nil {
		return err
	}
	return c.JSON(list)
}
