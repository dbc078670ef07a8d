package apiserver

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/strictjson"
)

// corsMaxAge lets browsers reuse a preflight answer for ten minutes, so a change of
// allowed origins reaches browsers within that.
const corsMaxAge = "600"

type publicKey struct{}

// publicIndex resolves the public ID and checks the Origin header against the index's
// allowed origins, exactly. An unknown public ID is 404: public IDs are 160 random bits,
// so saying one does not exist reveals nothing guessable. Only an allowed origin gets
// CORS headers, so a browser on another origin cannot read even the 403.
func (s *Server) publicIndex(c *fiber.Ctx) error {
	ctx := c.UserContext()
	publicID := utils.CopyString(c.Params("publicId"))
	idx, err := s.indexByPublicID(ctx, publicID)
	if err != nil {
		return err
	}
	err = checkOrigin(c, func(origin string) (bool, error) { return allows(idx, origin), nil })
	if err != nil {
		return err
	}
	c.Locals(publicKey{}, idx)
	return c.Next()
}

// checkOrigin is the one check of a public request's Origin header: allowed says whether
// a non-empty origin is allowed; an allowed one gets the CORS headers, any other
// errOriginNotAllowed without them. The answer varies by Origin either way.
func checkOrigin(c *fiber.Ctx, allowed func(origin string) (bool, error)) error {
	c.Vary(fiber.HeaderOrigin)
	origin := c.Get(fiber.HeaderOrigin)
	if origin == "" {
		return errOriginNotAllowed
	}
	ok, err := allowed(origin)
	if err != nil || !ok {
		return cmp.Or(err, errOriginNotAllowed)
	}
	allowOrigin(c, origin)
	return nil
}

// indexByPublicID returns the index with publicID, holding every change a replica
// answered before this request (internal/settingsfence).
func (s *Server) indexByPublicID(ctx context.Context, publicID string) (*searchv1alpha1.SearchIndex, error) {
	idx, err := s.registry.IndexByPublicID(ctx, publicID)
	if err != nil {
		return nil, err
	}
	return s.fence.Settled(ctx, idx)
}

// allows reports an Origin header that is exactly one of the index's allowed origins.
func allows(idx *searchv1alpha1.SearchIndex, origin string) bool {
	return origin != "" && slices.Contains(idx.Spec.AllowedOrigins, searchv1alpha1.Origin(origin))
}

// allowOrigin answers with the CORS headers of an allowed origin.
func allowOrigin(c *fiber.Ctx, origin string) {
	c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	// Without this a page cannot read Retry-After, which a 429 tells it to wait.
	c.Set(fiber.HeaderAccessControlExposeHeaders, fiber.HeaderRetryAfter)
}

// publicPreflight answers a CORS preflight for an allowed origin.
func (s *Server) publicPreflight(c *fiber.Ctx) error {
	c.Set(fiber.HeaderAccessControlAllowMethods, "POST, OPTIONS")
	c.Set(fiber.HeaderAccessControlAllowHeaders, fiber.HeaderContentType)
	c.Set(fiber.HeaderAccessControlMaxAge, corsMaxAge)
	return c.SendStatus(fiber.StatusNoContent)
}

// publicLimit takes one request of the visitor from the public search rate limits
// (public search and the public lists share them), or answers 429 with Retry-After.
func (s *Server) publicLimit(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	visitor := visitorKey(idx.Status.PublicID, c.IP(), c.Get(fiber.HeaderUserAgent))
	if ok, wait := s.limits.allow(idx.Status.PublicID, visitor); !ok {
		return limited(c, wait)
	}
	return c.Next()
}

// publicSearch answers POST /api/public/indexes/{publicId}/search under the index's
// public search policy and rate limits.
func (s *Server) publicSearch(c *fiber.Ctx) error {
	idx := c.Locals(publicKey{}).(*searchv1alpha1.SearchIndex)
	if err := requireJSONBody(c); err != nil {
		return err
	}
	var req searchquery.Request
	if err := strictjson.Decode(c.Body(), &req); err != nil {
		return err
	}
	return s.runSearch(c, idx, publicAccess(idx), req, true)
}

// publicAccess is what public search may ask of the index, under its policy: filters, facets,
// fields and hit cap (public search and the public lists).
func publicAccess(idx *searchv1alpha1.SearchIndex) searchquery.Access {
	return searchquery.PublicAccess(idx.Spec.Settings, publicPolicy(idx))
}

// publicPolicy is the index's public search policy (the defaults when it has none).
func publicPolicy(idx *searchv1alpha1.SearchIndex) searchv1alpha1.PublicSearchPolicy {
	if idx.Spec.PublicAccess != nil && idx.Spec.PublicAccess.Policy != nil {
		return *idx.Spec.PublicAccess.Policy
	}
	return searchv1alpha1.PublicSearchPolicy{}
}

// requireJSONBody refuses a public search body not declared as JSON (415).
func requireJSONBody(c *fiber.Ctx) error {
	ct := strings.TrimSpace(strings.SplitN(c.Get(fiber.HeaderContentType), ";", 2)[0])
	if !strings.EqualFold(ct, fiber.MIMEApplicationJSON) {
		return errNotJSON
	}
	return nil
}
