package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// DefaultStatsTTL is how long a field's smallest and largest values are reused: they
// only cut a criterion moved before the text criteria into ranges, which a minute-old
// range cuts nearly as well.
const DefaultStatsTTL = time.Minute

type statsKey struct{ alias, field string }

type cachedStats struct {
	mm      searchquery.MinMax
	ok      bool
	fetched time.Time
}

type statsCache struct {
	ttl     time.Duration
	mu      sync.Mutex
	entries map[statsKey]cachedStats
}

// fieldStats returns the bounds of fields behind alias, from the cache when fresh; the
// missing ones are read in one search of min and max aggregations. A field without
// values has no bounds.
func (s *Service) fieldStats(ctx context.Context, alias string, fields []string) (searchquery.FieldStats, error) {
	if len(fields) == 0 {
		return nil, nil
	}
	out := searchquery.FieldStats{}
	var missing []string
	s.stats.mu.Lock()
	for _, f := range fields {
		c, hit := s.stats.entries[statsKey{alias, f}]
		switch {
		case !hit || time.Since(c.fetched) >= s.stats.ttl:
			missing = append(missing, f)
		case c.ok:
			out[f] = c.mm
		}
	}
	s.stats.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	read, err := s.readStats(ctx, alias, missing)
	if err != nil {
		return nil, err
	}
	s.stats.mu.Lock()
	defer s.stats.mu.Unlock()
	for _, f := range missing {
		mm, ok := read[f]
		s.stats.entries[statsKey{alias, f}] = cachedStats{mm: mm, ok: ok, fetched: time.Now()}
		if ok {
			out[f] = mm
		}
	}
	return out, nil
}

func (s *Service) readStats(ctx context.Context, alias string, fields []string) (searchquery.FieldStats, error) {
	aggs := map[string]any{}
	for i, f := range fields {
		aggs["min"+strconv.Itoa(i)] = map[string]any{"min": map[string]any{"field": f}}
		aggs["max"+strconv.Itoa(i)] = map[string]any{"max": map[string]any{"field": f}}
	}
	body, err := json.Marshal(map[string]any{"size": 0, "track_total_hits": false, "aggs": aggs})
	if err != nil {
		return nil, err
	}
	raw, err := s.run(ctx, alias, body)
	if errors.Is(err, es.ErrNotFound) {
		return searchquery.FieldStats{}, nil
	}
	if err != nil {
		return nil, err
	}
	var res struct {
		Aggregations map[string]struct {
			Value *float64 `json:"value"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("decoding field bounds: %w", err)
	}
	out := searchquery.FieldStats{}
	for i, f := range fields {
		lo, hi := res.Aggregations["min"+strconv.Itoa(i)].Value, res.Aggregations["max"+strconv.Itoa(i)].Value
		if lo != nil && hi != nil {
			out[f] = searchquery.MinMax{Min: *lo, Max: *hi}
		}
	}
	return out, nil
}
