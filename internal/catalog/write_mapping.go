package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esmapping"
	"github.com/aislehq/aisle/internal/esnames"
)

// Step 2 of a write, the live mapping check: records are checked against the mapping of
// the physical index behind the alias (typecheck.go) before anything is written.

// mappings caches the mapping of physical indices, and the physical index last seen
// behind each alias. A key is a physical index, so an alias that moves reads the mapping
// of its new index. The index behind an alias is learnt from lookups and from the
// answers of writes through the alias; a swap may have moved the alias since, so a
// check that refuses against it looks the alias up again before refusing.
type mappings struct {
	mu      sync.Mutex
	byIndex map[string]*esmapping.Mapping
	target  map[string]string // alias -> the physical index last seen behind it
}

func (m *mappings) get(physical string) *esmapping.Mapping {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byIndex[physical]
}

func (m *mappings) targetOf(alias string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.target[alias]
}

// put stores a mapping and forgets the one of the index the alias left.
func (m *mappings) put(alias, physical string, mp *esmapping.Mapping) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.setTargetLocked(alias, physical)
	m.byIndex[physical] = mp
}

// setTarget notes the physical index behind alias and forgets the one the alias left.
func (m *mappings) setTarget(alias, physical string) {
	if physical == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.setTargetLocked(alias, physical)
}

func (m *mappings) setTargetLocked(alias, physical string) {
	if m.byIndex == nil {
		m.byIndex, m.target = map[string]*esmapping.Mapping{}, map[string]string{}
	}
	if old := m.target[alias]; old != "" && old != physical {
		delete(m.byIndex, old)
	}
	if alias != "" {
		m.target[alias] = physical
	}
}

// fetchMapping reads a physical index's current mapping (GET /<index>/_mapping).
func (s *Service) Mapping(ctx context.Context, physical string) (*esmapping.Mapping, error) {
	res, err := s.es.Indices.GetMapping().Index(physical).Perform(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the mapping of %s: %w", physical, es.Classify(err))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		return nil, fmt.Errorf("reading the mapping of %s: status %d: %w", physical, res.StatusCode, es.ErrUnavailable)
	}
	var body map[string]struct {
		Mappings esmapping.Mapping `json:"mappings"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("decoding the mapping of %s: %w", physical, err)
	}
	for _, v := range body {
		return &v.Mappings, nil
	}
	return &esmapping.Mapping{}, nil
}

// learnTarget notes the physical index a write through alias went to.
func (s *Service) learnTarget(alias string, items []es.BulkItem) {
	for _, r := range items {
		if r.Index != "" {
			s.maps.setTarget(alias, r.Index)
			return
		}
	}
}

// checkLive checks records against the index behind the alias, as last seen. A refusal
// (or a mapping that cannot be read) may come from an index a swap has moved the alias
// away from since: then the alias is looked up again, and a moved alias checks again.
func (s *Service) checkLive(ctx context.Context, names esnames.Index, records []Record) error {
	physical := s.maps.targetOf(names.Alias())
	var err error
	if physical != "" {
		if err = s.checkIndex(ctx, names, physical, records); err == nil {
			return nil
		}
	}
	current, lerr := s.AliasTarget(ctx, names)
	switch {
	case lerr != nil:
		return lerr
	case physical != "" && current == physical:
		return err
	case current == "":
		return nil
	}
	s.maps.setTarget(names.Alias(), current)
	return s.checkIndex(ctx, names, current, records)
}

// checkIndex checks records against physical. A field the cached mapping lacks may have
// been mapped since by another write: the mapping is read again once, then what is
// still unknown is checked for conflicts within the request.
func (s *Service) checkIndex(ctx context.Context, names esnames.Index, physical string, records []Record) error {
	m := s.maps.get(physical)
	fresh := m == nil
	var err error
	if fresh {
		if m, err = s.Mapping(ctx, physical); err != nil {
			return err
		}
		s.maps.put(names.Alias(), physical, m)
	}
	err = checkRecords(m, records, fresh)
	if !errors.Is(err, errStale) {
		return err
	}
	if m, err = s.Mapping(ctx, physical); err != nil {
		return err
	}
	s.maps.put(names.Alias(), physical, m)
	return checkRecords(m, records, true)
}
