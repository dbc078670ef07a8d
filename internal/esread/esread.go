// Package esread reads back what Aisle keeps in Elasticsearch for its read endpoints
// (the Events page's statistics, the recommendation lists): searches over indices that
// may not exist yet, and catalog records by ID. Both go through the typed client with the
// caller's context, and fail with errors classified by internal/es.
package esread

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/elastic/go-elasticsearch/v8"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// Search runs body against indices (comma-separated), any of which may not exist yet
// (no events of that month, no order so far): those are ignored, and no index at all is
// an empty answer.
func Search(ctx context.Context, client *elasticsearch.TypedClient, indices string, body any) ([]byte, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	// A search whose answer was cut off is sent again by the client (es.New), as any read.
	res, err := es.ReadBody(client.Search().Index(indices).IgnoreUnavailable(true).AllowNoIndices(true).
		TypedKeys(false).Raw(bytes.NewReader(raw)).Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", indices, err)
	}
	return res, nil
}

// Records fetches the catalog records of ids behind alias in one _mget, without the
// catalog's version field; includes (when not empty) limits the fields returned. Records
// not in the catalog are absent from the map.
func Records(ctx context.Context, client *elasticsearch.TypedClient, alias string, ids []string, includes []string) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	body, err := json.Marshal(map[string]any{"ids": ids})
	if err != nil {
		return nil, err
	}
	req := client.Mget().Index(alias).SourceExcludes_(indexmapping.VersionField).Raw(bytes.NewReader(body))
	if len(includes) > 0 {
		req = req.SourceIncludes_(append([]string{indexmapping.ObjectIDField}, includes...)...)
	}
	raw, err := es.ReadBody(req.Perform(ctx)) //nolint:bodyclose // ReadBody closes it
	if errors.Is(err, es.ErrNotFound) {
		return out, nil // no catalog yet
	}
	if err != nil {
		return nil, fmt.Errorf("reading records of %s: %w", alias, err)
	}
	var ans struct {
		Docs []struct {
			ID     string          `json:"_id"`
			Found  bool            `json:"found"`
			Source json.RawMessage `json:"_source"`
		} `json:"docs"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding records of %s: %w", alias, err)
	}
	for _, d := range ans.Docs {
		if d.Found {
			out[d.ID] = d.Source
		}
	}
	return out, nil
}
