package apiserver

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/tenancy"
)

// The keyed endpoints are declared once, with the scope each one's key needs, through
// keyedGroup.add: it adds the route to the router, behind authorize, and to the server's
// table of keyed routes, which bodyLimitFor reads to check a key before the body is
// read. The scope of an endpoint is written nowhere else.

// indexPrefix is the path of an index, under which every keyed endpoint lies but those
// that name their indexes in their body.
const indexPrefix = keyedPrefix + ":workspaceId/indexes/:index"

// workspacePrefix is the path of a workspace: the keyed endpoints that name their
// indexes in their body (multi-search) lie under it; their key is checked against the
// workspace first (authorizeWorkspace), then against each index the body names.
const workspacePrefix = keyedPrefix + ":workspaceId"

// The scopes of the keyed endpoints; tenancy.Either serves reads open to both keys.
var (
	writeScope  = tenancy.Need(searchv1alpha1.ScopeWrite)
	searchScope = tenancy.Need(searchv1alpha1.ScopeSearch)
	eventsScope = tenancy.Need(searchv1alpha1.ScopeEvents)
)

// keyedRoute is a keyed endpoint: its method, its path split at "/" (a ":name" segment
// takes any one segment) and the scope its key needs.
type keyedRoute struct {
	method   string
	segments []string
	need     tenancy.Requirement
}

// keyedTarget is what a keyed request asks for: an index of a workspace (none for an
// endpoint under the workspace prefix), with the scope its endpoint needs.
type keyedTarget struct {
	workspace, index string
	need             tenancy.Requirement
}

// keyedRoutes is the table of keyed endpoints.
type keyedRoutes []keyedRoute

// find returns the target of the route that takes method on path, the path as the
// router matches it (not unescaped); ok is false when no keyed route takes it.
func (rs keyedRoutes) find(method, path string) (t keyedTarget, ok bool) {
	segments := strings.Split(path, "/")
	for _, r := range rs {
		if params, ok := r.match(method, segments); ok {
			return keyedTarget{workspace: params["workspaceId"], index: params["index"], need: r.need}, true
		}
	}
	return keyedTarget{}, false
}

// match reports whether r takes method on the path of segments, and its parameters.
func (r keyedRoute) match(method string, segments []string) (map[string]string, bool) {
	if method != r.method || len(segments) != len(r.segments) {
		return nil, false
	}
	params := map[string]string{}
	for i, want := range r.segments {
		name, isParam := strings.CutPrefix(want, ":")
		switch {
		case isParam && segments[i] != "":
			params[name] = segments[i]
		case segments[i] != want:
			return nil, false
		}
	}
	return params, true
}

// keyedGroup declares keyed endpoints under a prefix.
type keyedGroup struct {
	s      *Server
	router fiber.Router
	prefix string
	// guards are what a request passes before its handlers: its key checked for the
	// endpoint's scope.
	guards func(tenancy.Requirement) []fiber.Handler
}

// keyed returns the group of the keyed endpoints under the index prefix, whose bodies
// must be JSON; called once, as it adds that check to the router.
func (s *Server) keyed() keyedGroup {
	return keyedGroup{s: s, router: s.app.Group(indexPrefix, requireJSON), prefix: indexPrefix,
		guards: func(need tenancy.Requirement) []fiber.Handler { return []fiber.Handler{s.authorize(need)} }}
}

// workspaceKeyed returns the group of the keyed endpoints under the workspace prefix,
// whose bodies must be JSON.
func (s *Server) workspaceKeyed() keyedGroup {
	return keyedGroup{s: s, router: s.app.Group(workspacePrefix), prefix: workspacePrefix,
		guards: func(need tenancy.Requirement) []fiber.Handler {
			return []fiber.Handler{requireJSON, s.authorizeWorkspace(need)}
		}}
}

// add declares the endpoint method path (under the group's prefix), whose key needs
// need, served by handlers once the group's guards have let it through. A GET also
// answers HEAD, as Fiber's Get does. An endpoint taking secured keys also serves
// browsers' CORS.
func (g keyedGroup) add(method, path string, need tenancy.Requirement, handlers ...fiber.Handler) {
	chain := append(g.guards(need), handlers...)
	if need.SecuredKeys {
		chain = append([]fiber.Handler{g.s.securedCORS}, chain...)
		g.router.Options(path, g.s.securedPreflight)
	}
	methods := []string{method}
	if method == fiber.MethodGet {
		methods = []string{fiber.MethodHead, fiber.MethodGet}
	}
	for _, m := range methods {
		g.router.Add(m, path, chain...)
		g.s.keyedRoutes = append(g.s.keyedRoutes, keyedRoute{method: m, segments: strings.Split(g.prefix+path, "/"), need: need})
	}
}
