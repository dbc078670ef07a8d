// Package controlindex creates the per-SearchIndex control index (esnames.Index.Control)
// whose documents the catalog and the events service keep their coordination state in:
// revision counters, leases, order keys, daily salts; and reads and writes those
// documents by compare-and-set (Store).
package controlindex

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/es"
)

// Mapping indexes only what janitors and retention search by; the rest is kept in
// _source.
const Mapping = `{"mappings":{"dynamic":false,"properties":{
"kind":{"type":"keyword"},"state":{"type":"keyword"},
"createdAt":{"type":"long"},"updatedAt":{"type":"long"},"deadline":{"type":"long"}}}}`

// Create creates the control index with its mapping; one that exists already (another
// replica won the race) is fine.
func Create(ctx context.Context, client *elasticsearch.TypedClient, index string) error {
	_, err := client.Indices.Create(index).Raw(bytes.NewReader([]byte(Mapping))).Do(ctx)
	if err := es.Classify(err); err != nil && !errors.Is(err, es.ErrConflict) {
		return fmt.Errorf("creating control index %s: %w", index, err)
	}
	return nil
}
