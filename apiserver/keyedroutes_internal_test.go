package apiserver

import (
	"slices"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/aislehq/aisle/internal/tenancy"
)

// TestKeyedRoutesFind checks that the header check finds a request's endpoint, scope,
// workspace and index as the router does: literal segments exactly (case and trailing
// slash count), a parameter any one non-empty segment, and HEAD where GET is.
func TestKeyedRoutesFind(t *testing.T) {
	s := New(Config{}, nil)
	cases := []struct {
		method, path string
		want         keyedTarget
		found        bool
	}{
		{fiber.MethodPut, "/api/teams/acme/indexes/shop/records", keyedTarget{"acme", "shop", writeScope}, true},
		{fiber.MethodGet, "/api/teams/acme/indexes/shop/records/sku%2F1", keyedTarget{"acme", "shop", tenancy.Either}, true},
		{fiber.MethodHead, "/api/teams/acme/indexes/shop/config", keyedTarget{"acme", "shop", tenancy.Either}, true},
		{fiber.MethodPut, "/api/teams/acme/indexes/shop/config", keyedTarget{"acme", "shop", writeScope}, true},
		{fiber.MethodPost, "/api/teams/acme/indexes/shop/staged-replacements/s1/batches/b1", keyedTarget{"acme", "shop", writeScope}, true},
		{fiber.MethodPost, "/api/teams/acme/indexes/shop/events", keyedTarget{"acme", "shop", eventsScope}, true},
		{fiber.MethodGet, "/api/teams/acme/indexes/shop/lists/together/sku-1", keyedTarget{"acme", "shop", searchScope}, true},
		{fiber.MethodPost, "/api/teams/acme/indexes/shop/config", keyedTarget{}, false},
		{fiber.MethodPut, "/api/teams/acme/indexes/shop/records/", keyedTarget{}, false},
		{fiber.MethodPut, "/api/teams/acme/indexes/shop/Records", keyedTarget{}, false},
		{fiber.MethodPut, "/api/teams//indexes/shop/records", keyedTarget{}, false},
		{fiber.MethodPost, "/api/public/indexes/pub-1/search", keyedTarget{}, false},
	}
	for _, c := range cases {
		got, found := s.keyedRoutes.find(c.method, c.path)
		if found != c.found || found && (got.workspace != c.want.workspace || got.index != c.want.index ||
			!slices.Equal(got.need.Scopes, c.want.need.Scopes)) {
			t.Errorf("find(%s %s) = %+v, %v; want %+v, %v", c.method, c.path, got, found, c.want, c.found)
		}
	}
}
