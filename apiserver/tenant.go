package apiserver

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/utils"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/tenancy"
)

// tenant is what authorization established about a request: who calls, and the index.
type tenant struct {
	principal tenancy.Principal
	index     *searchv1alpha1.SearchIndex
}

type tenantKey struct{}

func tenantFrom(ctx context.Context) tenant {
	t, _ := ctx.Value(tenantKey{}).(tenant)
	return t
}

// authorize authenticates the bearer key and checks it against the path's workspace and
// index for req, and a secured key's Origin against the index's; the index holds every
// change a replica answered before this request (internal/settingsfence). Path values
// are copied: Fiber reuses their memory after the handler.
func (s *Server) authorize(req tenancy.Requirement) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx := c.UserContext()
		ws := utils.CopyString(c.Params("workspaceId"))
		index := utils.CopyString(c.Params("index"))
		p, idx, err := s.registry.Authorize(ctx, c.Get(fiber.HeaderAuthorization), ws, index, req)
		if err == nil {
			idx, err = s.fence.Settled(ctx, idx)
		}
		if err != nil {
			return err
		}
		if err := checkSecuredOrigin(p, idx, c.Get(fiber.HeaderOrigin)); err != nil {
			return err
		}
		c.SetUserContext(context.WithValue(ctx, tenantKey{}, tenant{principal: p, index: idx}))
		return c.Next()
	}
}

// authorizeWorkspace authenticates the bearer key and checks it against the path's
// workspace for req, for an endpoint naming its indexes in its body: each is checked
// when the handler reads it (tenancy.Registry.AuthorizeIndex).
func (s *Server) authorizeWorkspace(req tenancy.Requirement) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx := c.UserContext()
		ws := utils.CopyString(c.Params("workspaceId"))
		p, err := s.registry.AuthorizeWorkspace(ctx, c.Get(fiber.HeaderAuthorization), ws, req)
		if err != nil {
			return err
		}
		c.SetUserContext(context.WithValue(ctx, tenantKey{}, tenant{principal: p}))
		return c.Next()
	}
}
