package apiserver

import (
	"embed"
	"io/fs"
	"net/http"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/filesystem"

	"github.com/aislehq/aisle/internal/tenancy"
)

// dashboardFiles are the Events page and the merchandising studio. chart.umd.min.js is
// copied from npm by `make dashboard-assets`; package.json and node_modules stay out of
// the binary.
//
//go:embed dashboard/index.html dashboard/dashboard.js dashboard/ui.js dashboard/searches.js dashboard/dashboard.css
//go:embed dashboard/login.js
//go:embed dashboard/chart.umd.min.js
//go:embed dashboard/studio.html dashboard/studio*.js dashboard/studio.css
var dashboardFiles embed.FS

// dashboardPolicy lets the page run only its own files and call only this server, so
// that a record's text can never run as script even if it reached the page as HTML.
const dashboardPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// KeyInfo is the body of GET /dashboard/api/key: the workspace and the existing indexes
// of the key the dashboard was given, and what it may do in the studio: search (its
// preview) and write (its edit controls are shown only then; the endpoints refuse
// other keys anyway).
type KeyInfo struct {
	Workspace string   `json:"workspace"`
	Indexes   []string `json:"indexes"`
	CanSearch bool     `json:"canSearch"`
	CanWrite  bool     `json:"canWrite"`
}

// dashboardRoutes serves the Events page at /dashboard/, the studio at
// /dashboard/studio.html, and the one call they need beyond the contract's endpoints:
// which indexes their key may read.
func (s *Server) dashboardRoutes() {
	root, err := fs.Sub(dashboardFiles, "dashboard")
	if err != nil {
		panic(err) // the embed pattern above names the folder
	}
	s.app.Get("/dashboard", func(c *fiber.Ctx) error { return c.Redirect("/dashboard/", fiber.StatusMovedPermanently) })
	s.app.Get("/dashboard/api/key", s.getKeyInfo)
	s.app.Use("/dashboard/", dashboardHeaders, filesystem.New(filesystem.Config{Root: http.FS(root), Index: "index.html"}))
}

func dashboardHeaders(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentSecurityPolicy, dashboardPolicy)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Next()
}

// getKeyInfo answers which of its indexes a key with the search or write scope may see
// on the Events page, sorted by name.
func (s *Server) getKeyInfo(c *fiber.Ctx) error {
	ctx := c.UserContext()
	p, err := s.registry.Authenticate(ctx, c.Get(fiber.HeaderAuthorization))
	if err != nil {
		return err
	}
	if !p.Allows(tenancy.Either) {
		return tenancy.ErrScopeDenied
	}
	all, err := s.registry.Indexes(ctx, p.Workspace)
	if err != nil {
		return err
	}
	info := KeyInfo{Workspace: p.Workspace, Indexes: []string{}, CanSearch: p.Allows(searchScope), CanWrite: p.Allows(writeScope)}
	for _, idx := range all {
		if slices.Contains(p.Indexes, idx.Name) {
			info.Indexes = append(info.Indexes, idx.Name)
		}
	}
	slices.Sort(info.Indexes)
	return c.JSON(info)
}
