package indexlifecycle

import (
	"encoding/json"
	"testing"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

func TestMetaOf(t *testing.T) {
	withMeta := func(raw string) types.IndexState {
		return types.IndexState{Mappings: &types.TypeMapping{Meta_: types.Metadata{"aisle": json.RawMessage(raw)}}}
	}
	for _, tc := range []struct {
		name  string
		state types.IndexState
		hash  string
		made  int64 // the catalog's createdAt; -1: not the catalog's
	}{
		{"no mappings", types.IndexState{}, "", -1},
		{"no _meta.aisle", types.IndexState{Mappings: &types.TypeMapping{}}, "", -1},
		{"the operator's index: a settings hash", withMeta(`{"settingsHash":"h1"}`), "h1", -1},
		{"the catalog's index: its hash and when it was made", withMeta(`{"settingsHash":"h2","catalog":{"createdAt":42}}`), "h2", 42},
		{"a _meta.aisle that does not decode reads as none", withMeta(`{"settingsHash":7}`), "", -1},
	} {
		m := MetaOf(tc.state)
		made := int64(-1)
		if m.Catalog != nil {
			made = m.Catalog.CreatedAt
		}
		if m.SettingsHash != tc.hash || made != tc.made {
			t.Errorf("%s: MetaOf = {%q, %d}, want {%q, %d}", tc.name, m.SettingsHash, made, tc.hash, tc.made)
		}
	}
}
