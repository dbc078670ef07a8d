package whynot

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ProbeAnswer is what the probe's aggregation says of the record.
type ProbeAnswer struct {
	// Exists: the index holds the record.
	Exists bool
	// Failed are the checks the record does not pass, in checks' order.
	Failed []Check
	// Source is the record's _source (nil when it does not exist).
	Source map[string]any
}

// ReadChecks reads an answer to Checks(..., checks).
func ReadChecks(raw []byte, checks []Check) (ProbeAnswer, error) {
	var ans struct {
		Hits struct {
			Hits []struct {
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
		Aggregations map[string]struct {
			Buckets map[string]struct {
				DocCount int64 `json:"doc_count"`
			} `json:"buckets"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return ProbeAnswer{}, fmt.Errorf("decoding the why-not checks: %w", err)
	}
	if len(ans.Hits.Hits) == 0 {
		return ProbeAnswer{}, nil
	}
	out := ProbeAnswer{Exists: true, Source: ans.Hits.Hits[0].Source}
	buckets, ok := ans.Aggregations[checksAgg]
	if !ok && len(checks) > 0 {
		return ProbeAnswer{}, fmt.Errorf("the why-not checks' answer has no %s aggregation", checksAgg)
	}
	for i, c := range checks {
		if buckets.Buckets[fmt.Sprintf("c%d", i)].DocCount == 0 {
			out.Failed = append(out.Failed, c)
		}
	}
	return out, nil
}

// Ranked is one hit of the window: its ID and the value of the field grouping it.
type Ranked struct {
	ID    string
	Group any
}

// ReadWindow reads an answer to Window(..., groupField): its hits in order.
func ReadWindow(raw []byte, groupField string) ([]Ranked, error) {
	var ans struct {
		Hits struct {
			Hits []struct {
				ID     string         `json:"_id"`
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("decoding the why-not window: %w", err)
	}
	out := make([]Ranked, len(ans.Hits.Hits))
	for i, h := range ans.Hits.Hits {
		out[i] = Ranked{ID: h.ID}
		if groupField != "" {
			out[i].Group = ValueAt(h.Source, groupField)
		}
	}
	return out, nil
}

// ValueAt is the value at a dotted path of a record (nil when it has none).
func ValueAt(src map[string]any, path string) any {
	var v any = src
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}
