package apiserver

import (
	"net/url"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// facetRoutes declares the facet value search, keyed and public.
func (s *Server) facetRoutes(idx keyedGroup) {
	idx.add(fiber.MethodPost, "/facets/:field/search", securedSearchScope, s.needSearch, s.postFacetSearch)

	public := s.app.Group("/api/public/indexes/:publicId")
	public.Options("/facets/:field/search", s.publicIndex, s.publicPreflight)
	public.Post("/facets/:field/search", s.publicIndex, s.publicLimit, s.needSearch, s.publicFacetSearch)
}

// postFacetSearch answers POST /facets/{field}/search, for a search key or one of its
// secured keys (whose filters narrow the records counted).
func (s *Server) postFacetSearch(c *fiber.Ctx) error {
	t := tenantFrom(c.UserContext())
	return s.facetSearch(c, t.index, searchAccess(t))
}

// publicFacetSearch answers the public facet value search under the index's policy and
// the public search rate limits.
func (s *Server) publicFacetSearch(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	if err := requireJSONBody(c); err != nil {
		return err
	}
	return s.facetSearch(c, idx, publicAccess(idx))
}

// facetSearch binds a facet value search, counts it as a search and answers it.
func (s *Server) facetSearch(c *fiber.Ctx, idx *searchv1alpha1.SearchIndex, access searchquery.Access) error {
	field, err := url.PathUnescape(c.Params("field"))
	if err != nil {
		return errFieldEscape
	}
	field = utils.CopyString(field)
	var req searchquery.FacetSearchRequest
	if err := strictjson.Decode(c.Body(), &req); err != nil {
		return err
	}
	ctx := c.UserContext()
	if err := s.countSearch(ctx, idx); err != nil {
		return err
	}
	res, err := s.search.SearchFacetValues(ctx, esnames.For(idx.Namespace, idx.Name).Alias(), access, field, req)
	if err != nil {
		return err
	}
	return c.JSON(res)
}
