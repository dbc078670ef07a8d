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

type bucket struct {
	DocCount int64 `json:"doc_count"`
	Doc      struct {
		Hits struct {
			Hits []struct {
				Source map[string]any `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	} `json:"doc"`
}

// ReadProbe reads an answer to Probe(..., checks).
func ReadProbe(raw []byte, checks []Check) (ProbeAnswer, error) {
	var ans struct {
		Aggregations map[string]struct {
			Checks struct {
				Buckets map[string]bucket `json:"buckets"`
			} `json:"checks"`
		} `json:"aggregations"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return ProbeAnswer{}, fmt.Errorf("decoding the why-not probe: %w", err)
	}
	buckets := ans.Aggregations[checksAgg].Checks.Buckets
	rec, ok := buckets["record"]
	if !ok {
		return ProbeAnswer{}, fmt.Errorf("the why-not probe's answer has no record bucket")
	}
	out := ProbeAnswer{Exists: rec.DocCount > 0}
	if !out.Exists {
		return out, nil
	}
	if hits := rec.Doc.Hits.Hits; len(hits) > 0 {
		out.Source = hits[0].Source
	}
	for i, c := range checks {
		if buckets[fmt.Sprintf("c%d", i)].DocCount == 0 {
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
