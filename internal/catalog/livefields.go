package catalog

import (
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/internal/esmapping"
)

// addLiveFields adds to an index body's mappings the properties of live it lacks, at
// every depth: the settings' own definitions win, every other field keeps the type the
// live index gave it.
func addLiveFields(mappings map[string]any, live *esmapping.Mapping) error {
	if live == nil || len(live.Properties) == 0 {
		return nil
	}
	raw, err := json.Marshal(live.Properties)
	if err != nil {
		return fmt.Errorf("encoding the live mapping: %w", err)
	}
	var liveProps map[string]any
	if err := json.Unmarshal(raw, &liveProps); err != nil {
		return fmt.Errorf("decoding the live mapping: %w", err)
	}
	props, _ := mappings["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		mappings["properties"] = props
	}
	mergeMissing(props, liveProps)
	return nil
}

// mergeMissing copies the entries of from that into lacks, descending into objects
// both hold.
func mergeMissing(into, from map[string]any) {
	for name, v := range from {
		have, ok := into[name].(map[string]any)
		if !ok {
			if _, defined := into[name]; !defined {
				into[name] = v
			}
			continue
		}
		theirs, _ := v.(map[string]any)
		sub, _ := have["properties"].(map[string]any)
		liveSub, _ := theirs["properties"].(map[string]any)
		if sub != nil && liveSub != nil {
			mergeMissing(sub, liveSub)
		}
	}
}
