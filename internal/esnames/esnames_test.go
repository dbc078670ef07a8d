package esnames_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aislehq/aisle/internal/esnames"
)

func TestNamesDoNotCollideAcrossIndexNames(t *testing.T) {
	products := esnames.For("demo", "products")
	products1 := esnames.For("demo", "products-1")
	if products.Physical(1) == products1.Alias() || products.Physical(1) == products1.Physical(1) {
		t.Fatalf("physical index %q collides with names of index products-1", products.Physical(1))
	}
}

func TestNames(t *testing.T) {
	n := esnames.For("demo", "products")
	cases := map[string]string{
		n.Alias():     "aisle.demo.products.records",
		n.Physical(7): "aisle.demo.products.records-7",
		n.Orders():    "aisle.demo.products.orders",
		n.Events(time.Date(2026, 3, 31, 23, 0, 0, 0, time.FixedZone("x", -3600*5))): "aisle.demo.products.events-2026.04",
		n.AllPattern(): "aisle.demo.products.*",
		n.Searches(time.Date(2026, 11, 30, 23, 30, 0, 0, time.FixedZone("x", -3600))): "aisle.demo.products.searches-2026.12",
		n.SearchesPattern(): "aisle.demo.products.searches-*",
		n.Rules():           "aisle.demo.products.rules",
		n.Signals():         "aisle.demo.products.signals",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	gen, err := n.Generation("aisle.demo.products.records-42")
	if err != nil || gen != 42 {
		t.Errorf("Generation = %d, %v; want 42", gen, err)
	}
	if _, err := n.Generation("aisle.demo.other.records-42"); err == nil {
		t.Error("Generation accepted the physical index of another SearchIndex")
	}
}

func TestFromAliasGivesBackTheNames(t *testing.T) {
	for _, n := range []esnames.Index{esnames.For("demo", "products"), {Prefix: "shop.eu", Workspace: "w-1", Name: "p-2"}} {
		got, ok := esnames.FromAlias(n.Alias())
		if !ok || got != n {
			t.Errorf("FromAlias(%q) = %+v, %t; want %+v", n.Alias(), got, ok, n)
		}
	}
	for _, bad := range []string{"products", "a.b.records", ".a.b.records", "aisle.demo.products.orders", "aisle..p.records"} {
		if got, ok := esnames.FromAlias(bad); ok {
			t.Errorf("FromAlias(%q) = %+v, want no names", bad, got)
		}
	}
}

func TestSearchLogsAreDeletedWithTheIndex(t *testing.T) {
	n := esnames.For("demo", "products")
	all := strings.TrimSuffix(n.AllPattern(), "*")
	for _, name := range []string{n.Searches(time.Now()), n.SearchesPattern(), n.Signals()} {
		if !strings.HasPrefix(name, all) {
			t.Errorf("%q is outside %q, so deleting the SearchIndex would keep it", name, n.AllPattern())
		}
	}
}
