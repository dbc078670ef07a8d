package indexlifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aislehq/aisle/internal/es"
	"github.com/elastic/go-elasticsearch/v8/typedapi/types"
)

// Meta is what Aisle records under a physical index's mapping _meta.aisle: the settings
// hash the index was built from (indexmapping.Build writes it) and, on an index the
// catalog's write path filled (a replacement or a stage), when the catalog made it.
type Meta struct {
	SettingsHash string `json:"settingsHash"`
	// Catalog is set on the catalog's indices (its key is catalog.MetaKey).
	Catalog *CatalogMeta `json:"catalog"`
}

// CatalogMeta marks an index the catalog made.
type CatalogMeta struct {
	CreatedAt int64 `json:"createdAt"` // Unix milliseconds
}

// MetaOf reads an index's _meta.aisle; an index without one, or with one that does not
// decode, has the zero Meta.
func MetaOf(state types.IndexState) Meta {
	var m Meta
	if state.Mappings == nil {
		return m
	}
	raw, ok := state.Mappings.Meta_["aisle"]
	if !ok || json.Unmarshal(raw, &m) != nil {
		return Meta{}
	}
	return m
}

// Count returns the number of records in an index or behind an alias (0 when it does
// not exist yet).
func (x Indices) Count(ctx context.Context, name string) (int64, error) {
	res, err := x.es.Core.Count().Index(name).Do(ctx)
	if err := es.Classify(err); err != nil {
		if errors.Is(err, es.ErrNotFound) {
			return 0, nil
		}
		return 0, fmt.Errorf("counting %s: %w", name, err)
	}
	return res.Count, nil
}
