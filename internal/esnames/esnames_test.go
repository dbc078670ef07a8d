package esnames_test

import (
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
