package indexlifecycle

import (
	"encoding/json"
	"testing"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"

	"github.com/aislehq/aisle/internal/esnames"
)

var names = esnames.For("ws", "products")

func TestNext(t *testing.T) {
	for _, tc := range []struct {
		name              string
		counter, existing int64
		want              int64
	}{
		{"nothing yet: the first generation", 0, 0, 1},
		{"the operator's first index, nothing counted", 0, 1, 2},
		{"the counter ahead of what exists (old indices deleted)", 7, 3, 8},
		{"an index made by someone not counting, above the counter", 3, 9, 10},
		{"both at the same generation", 4, 4, 5},
	} {
		if got := Next(tc.counter, tc.existing); got != tc.want {
			t.Errorf("%s: Next(%d, %d) = %d, want %d", tc.name, tc.counter, tc.existing, got, tc.want)
		}
	}
}

func TestHighestAndNewest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		indices []string
		newest  string
		highest int64
	}{
		{"none", nil, "", 0},
		{"one", []string{names.Physical(1)}, names.Physical(1), 1},
		{"numeric, not lexical, order", []string{names.Physical(9), names.Physical(10), names.Physical(2)}, names.Physical(10), 10},
		{"other indices left out", []string{names.Physical(3), names.Control(), "aisle.ws.products.records-x", esnames.For("ws", "other").Physical(8)}, names.Physical(3), 3},
		{"only other indices", []string{names.Control(), names.Orders()}, "", 0},
	} {
		newest, gen := Newest(names, tc.indices)
		if newest != tc.newest || gen != tc.highest || Highest(names, tc.indices) != tc.highest {
			t.Errorf("%s: Newest = %q, %d; Highest = %d; want %q, %d", tc.name, newest, gen, Highest(names, tc.indices), tc.newest, tc.highest)
		}
	}
}

func TestAliased(t *testing.T) {
	alias := names.Alias()
	indices := map[string]types.IndexState{
		names.Physical(1): {},
		names.Physical(2): {Aliases: map[string]types.Alias{alias: {}}},
		names.Physical(3): {Aliases: map[string]types.Alias{"other": {}}},
	}
	if got, ok := Aliased(indices, alias); !ok || got != names.Physical(2) {
		t.Errorf("Aliased = %q, %v; want %q", got, ok, names.Physical(2))
	}
	if got, ok := Aliased(indices, "nobody"); ok || got != "" {
		t.Errorf("an alias on no index: %q, %v", got, ok)
	}
}

func TestAliasActions(t *testing.T) {
	alias, one, two := names.Alias(), names.Physical(1), names.Physical(2)
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"no index before: add only", "", one, `[{"add":{"alias":"` + alias + `","index":"` + one + `"}}]`},
		{"already there: add only (idempotent)", one, one, `[{"add":{"alias":"` + alias + `","index":"` + one + `"}}]`},
		{"moved: remove and add in one call", one, two,
			`[{"remove":{"alias":"` + alias + `","index":"` + one + `"}},{"add":{"alias":"` + alias + `","index":"` + two + `"}}]`},
	} {
		got, err := json.Marshal(AliasActions(alias, tc.from, tc.to))
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s %v\nwant %s", tc.name, got, err, tc.want)
		}
	}
}
