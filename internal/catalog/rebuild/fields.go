package rebuild

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esmapping"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// A rebuild's target is created from the settings; every other field is mapped as the
// source maps it before a page that may hold it is written. Left to dynamic mapping,
// the target would type a field by whichever value the copy meets first, which need not
// be the one the source met first ("abc" then 5 is text in the source; the copy, in
// objectID order, may meet 5 first, map a long and then refuse "abc"), and the rebuild
// could never finish.

// syncFields maps in the target the fields the source has and the target lacks, as the
// source maps them; the settings' own definitions in the target stay as they are. Called
// after a page is read from the source, it covers every field the page holds.
func (c *copier) syncFields(ctx context.Context) error {
	live, err := c.r.cat.Mapping(ctx, c.source)
	if err != nil {
		return err
	}
	have, err := c.r.cat.Mapping(ctx, c.target)
	if err != nil {
		return err
	}
	missing, err := missingFields(have, live)
	if err != nil || len(missing) == 0 {
		return err
	}
	raw, err := json.Marshal(map[string]any{"properties": missing})
	if err != nil {
		return fmt.Errorf("encoding the fields to map: %w", err)
	}
	if _, err := c.r.cat.Client().Indices.PutMapping(c.target).Raw(bytes.NewReader(raw)).Do(ctx); err != nil {
		return fmt.Errorf("mapping the source's fields in %s: %w", c.target, es.Classify(err))
	}
	return nil
}

// missingFields returns the properties of live that have lacks, at every depth.
func missingFields(have, live *esmapping.Mapping) (map[string]any, error) {
	haveProps, err := propsOf(have)
	if err != nil {
		return nil, err
	}
	liveProps, err := propsOf(live)
	if err != nil {
		return nil, err
	}
	return missingTopProps(haveProps, liveProps), nil
}

func propsOf(m *esmapping.Mapping) (map[string]any, error) {
	props := map[string]any{}
	if m == nil || len(m.Properties) == 0 {
		return props, nil
	}
	raw, err := json.Marshal(m.Properties)
	if err != nil {
		return nil, fmt.Errorf("encoding a mapping: %w", err)
	}
	if err := json.Unmarshal(raw, &props); err != nil {
		return nil, fmt.Errorf("decoding a mapping: %w", err)
	}
	return props, nil
}

// missingTopProps leaves the vectors and the embedders' state out: the settings alone
// define them, and a removed embedder's field must not come back from the source.
func missingTopProps(have, live map[string]any) map[string]any {
	out := missingProps(have, live)
	delete(out, indexmapping.VectorsField)
	delete(out, indexmapping.EmbedStateField)
	return out
}

// missingProps descends into the objects both hold; a name have maps as something else
// than live stays as have maps it.
func missingProps(have, live map[string]any) map[string]any {
	out := map[string]any{}
	for name, v := range live {
		h, defined := have[name]
		if !defined {
			out[name] = v
			continue
		}
		hm, _ := h.(map[string]any)
		lm, _ := v.(map[string]any)
		hp, _ := hm["properties"].(map[string]any)
		lp, _ := lm["properties"].(map[string]any)
		if hp == nil || lp == nil {
			continue
		}
		if sub := missingProps(hp, lp); len(sub) > 0 {
			entry := map[string]any{"properties": sub}
			if typ, ok := lm["type"]; ok {
				entry["type"] = typ
			}
			out[name] = entry
		}
	}
	return out
}
