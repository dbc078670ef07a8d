package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// FieldInfo is one field path of GET /fields.
type FieldInfo struct {
	Path string           `json:"path"`
	Type searchquery.Kind `json:"type"`
	// Records is the number of records holding the field.
	Records int64 `json:"records"`
}

// Fields lists the field paths that records of the index hold, with their types. The
// mapping knows every field ever seen (also of records since deleted), so one search
// counts the records holding each (a filter aggregation on exists per field) and the
// fields no record holds any more are left out.
func (s *Service) Fields(ctx context.Context, alias string) ([]FieldInfo, error) {
	schema, err := s.fetchSchema(ctx, alias)
	if err != nil {
		return nil, err
	}
	fields := schema.Sorted()
	if len(fields) == 0 {
		return []FieldInfo{}, nil
	}
	aggs := make(map[string]any, len(fields))
	for i, f := range fields {
		aggs["p"+strconv.Itoa(i)] = map[string]any{"filter": map[string]any{"exists": map[string]any{"field": f.Path}}}
	}
	body, err := json.Marshal(map[string]any{"size": 0, "track_total_hits": false, "aggs": aggs})
	if err != nil {
		return nil, err
	}
	raw, err := s.run(ctx, alias, body)
	if errors.Is(err, es.ErrNotFound) {
		return []FieldInfo{}, nil
	}
	if err != nil {
		return nil, err
	}
	var res struct {
		Aggregations map[string]struct {
			DocCount int64 `json:"doc_count"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("decoding field counts: %w", err)
	}
	out := make([]FieldInfo, 0, len(fields))
	for i, f := range fields {
		if n := res.Aggregations["p"+strconv.Itoa(i)].DocCount; n > 0 {
			out = append(out, FieldInfo{Path: f.Path, Type: f.Kind, Records: n})
		}
	}
	return out, nil
}
