package apiserver

import (
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/tenancy"
)

// Secured keys (docs/secured-keys.md) are search keys a shop's server derives for a
// browser, with restrictions baked in. tenancy authenticates them and narrows their
// indexes; the endpoints that take them (their scope is securedSearchScope) apply the
// rest with searchAccess, and serve browsers: CORS for the index's allowed origins.
// Every other keyed endpoint answers a secured key 403.

// securedSearchScope is the scope of the endpoints that take secured keys: search ones,
// each running its search under searchAccess.
var securedSearchScope = searchScope.AlsoSecured()

// searchAccess is what a keyed search may ask by t's key on t's index: the index's
// settings, narrowed by a secured key's restriction (its filters ANDed with the
// request's, its hit cap capping the request's limit). The key's index subset was
// applied when it was authorized, and a plain key's access is the index's own. They
// carry the index's public policy, which a keyed search does not apply: why not says
// when public search would hide a record.
func searchAccess(t tenant) searchquery.Access {
	r := searchquery.KeyedAccess(t.index.Spec.Settings).Restricted(t.principal.Restriction)
	r.Policy = publicPolicy(t.index)
	return r
}

// checkSecuredOrigin refuses a secured key sent by a browser (an Origin header) from an
// origin the index does not allow, as public search does. Plain keys are server code,
// and a secured key without Origin is used by one: neither is checked.
func checkSecuredOrigin(p tenancy.Principal, idx *searchv1alpha1.SearchIndex, origin string) error {
	if p.Restriction == nil || origin == "" || allows(idx, origin) {
		return nil
	}
	return errOriginNotAllowed
}

// securedCORS lets a page read the answers meant for it, on an endpoint that takes
// secured keys: those to a secured key from an allowed origin (authorize checked it),
// and the 401 of a refused key, which says nothing about the index, so that a page tells
// an expired key from a network failure. A plain key's answers carry no CORS headers.
func (s *Server) securedCORS(c *fiber.Ctx) error {
	origin := utils.CopyString(c.Get(fiber.HeaderOrigin))
	if origin == "" {
		return c.Next()
	}
	c.Vary(fiber.HeaderOrigin)
	err := c.Next()
	status, _ := classify(err)
	if tenantFrom(c.UserContext()).principal.Restriction != nil || (err != nil && status == http.StatusUnauthorized) {
		c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	}
	return err
}

// securedPreflight answers the CORS preflight of an endpoint that takes secured keys. A
// preflight carries no key, so it is answered alike for every origin and path, without
// looking up the workspace or index (which would tell anyone which exist and whom they
// allow): the request itself is checked.
func (s *Server) securedPreflight(c *fiber.Ctx) error {
	c.Vary(fiber.HeaderOrigin)
	if origin := c.Get(fiber.HeaderOrigin); origin != "" {
		c.Set(fiber.HeaderAccessControlAllowOrigin, origin)
	}
	c.Set(fiber.HeaderAccessControlAllowMethods, "POST, OPTIONS")
	c.Set(fiber.HeaderAccessControlAllowHeaders, fiber.HeaderAuthorization+", "+fiber.HeaderContentType)
	c.Set(fiber.HeaderAccessControlMaxAge, corsMaxAge)
	return c.SendStatus(fiber.StatusNoContent)
}
