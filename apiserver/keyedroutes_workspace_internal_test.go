package apiserver

import (
	"testing"

	"github.com/gofiber/fiber/v2"
)

// TestWorkspaceRoutesFind checks that the header check finds the endpoints under the
// workspace prefix, with no index (the key is checked against the workspace alone).
func TestWorkspaceRoutesFind(t *testing.T) {
	s := New(Config{}, nil)
	got, found := s.keyedRoutes.find(fiber.MethodPost, "/api/teams/acme/multi-search")
	if !found || got.workspace != "acme" || got.index != "" || len(got.need.Scopes) != 1 || got.need.Scopes[0] != "search" {
		t.Errorf("find(POST multi-search) = %+v, %v", got, found)
	}
	for _, path := range []string{"/api/teams/acme/multi-search/", "/api/teams//multi-search", "/api/public/multi-search"} {
		if _, found := s.keyedRoutes.find(fiber.MethodPost, path); found {
			t.Errorf("find(POST %s) found a keyed route", path)
		}
	}
	if _, found := s.keyedRoutes.find(fiber.MethodGet, "/api/teams/acme/multi-search"); found {
		t.Errorf("find(GET multi-search) found a keyed route")
	}
}
