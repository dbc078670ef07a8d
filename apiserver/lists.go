package apiserver

import (
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/recommend"
	"github.com/aislehq/aisle/internal/searchquery"
)

// listRoutes declares the recommendation lists beside Bought together (whose route,
// declared first, answers /lists/together/...): similar and goes with of a product, and
// trending, keyed and public.
func (s *Server) listRoutes(idx keyedGroup) {
	idx.add(fiber.MethodGet, "/lists/trending", searchScope, s.needLists, s.getTrending)
	idx.add(fiber.MethodGet, "/lists/:list/:objectID", searchScope, s.needLists, s.getList)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Get("/lists/trending", s.publicIndex, s.publicLimit, s.needLists, s.publicTrending)
	public.Get("/lists/:list/:objectID", s.publicIndex, s.publicLimit, s.needLists, s.publicList)
}

// needLists answers 503 when the server runs without a search backend.
func (s *Server) needLists(c *fiber.Ctx) error {
	if s.recommend == nil {
		return errNoBackend
	}
	return c.Next()
}

func (s *Server) getList(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	return s.list(c, idx, searchquery.KeyedAccess(idx.Spec.Settings))
}

func (s *Server) publicList(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	return s.list(c, idx, publicAccess(idx))
}

func (s *Server) getTrending(c *fiber.Ctx) error {
	idx := tenantFrom(c.UserContext()).index
	return s.trending(c, idx, searchquery.KeyedAccess(idx.Spec.Settings))
}

func (s *Server) publicTrending(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	return s.trending(c, idx, publicAccess(idx))
}

// list answers GET /lists/{list}/{objectID} (similar, goesWith) under access.
func (s *Server) list(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access) error {
	name := c.Params("list")
	if err := recommend.ParseList(name); err != nil {
		return err
	}
	id, err := objectIDParam(c)
	if err != nil {
		return err
	}
	req, err := listRequest(c, idx, access, false)
	if err != nil {
		return err
	}
	req.ObjectID = id
	var list recommend.List
	if name == recommend.Similar {
		list, err = s.recommend.Similar(c.UserContext(), req)
	} else {
		list, err = s.recommend.GoesWith(c.UserContext(), req)
	}
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// trending answers GET /lists/trending under access.
func (s *Server) trending(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access) error {
	req, err := listRequest(c, idx, access, true)
	if err != nil {
		return err
	}
	list, err := s.recommend.Trending(c.UserContext(), req)
	if err != nil {
		return err
	}
	return c.JSON(list)
}

// listRequest binds a list's query parameters, copied (they outlive the handler in the
// service's caches), and caps its limit at the access's hit cap.
func listRequest(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access, trending bool) (recommend.Request, error) {
	q := recommend.Query{Limit: c.Query("limit"), Filters: c.Query("filters"),
		Field: utils.CopyString(c.Query("field")), Value: utils.CopyString(c.Query("value"))}
	params, err := recommend.ParseParams(q, trending)
	if err != nil {
		return recommend.Request{}, err
	}
	params.Limit = min(params.Limit, access.HitCap())
	return recommend.Request{Index: esnames.For(idx.Namespace, idx.Name), Settings: idx.Spec.Settings, Access: access, Params: params}, nil
}
