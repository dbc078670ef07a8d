package httpapi

import (
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

// engineVersion is the Elasticsearch release the engine presents itself as (GET /).
const engineVersion = "8.19.7"

// getIndexFeatures are the parts of GET /{index} that ?features= selects.
var getIndexFeatures = []string{"aliases", "mappings", "settings"}

func parseFeatures(v string) (map[string]bool, error) {
	out := map[string]bool{}
	if v == "" {
		for _, f := range getIndexFeatures {
			out[f] = true
		}
		return out, nil
	}
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f != "aliases" && f != "mappings" && f != "settings" {
			return nil, eserr.IllegalArgument("No feature for name [%s]", f)
		}
		out[f] = true
	}
	return out, nil
}

func (a *API) getIndex(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		features, err := parseFeatures(q.param("features"))
		if err != nil {
			return 0, nil, err
		}
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		flat := q.param("flat_settings") == "true"
		human, err := boolParam(q, "human", false)
		if err != nil {
			return 0, nil, err
		}
		out := map[string]any{}
		for _, ix := range indices {
			// ES always shows the three keys; a feature left out is an empty object.
			entry := map[string]any{"aliases": map[string]any{}, "mappings": map[string]any{}, "settings": map[string]any{}}
			if features["aliases"] {
				entry["aliases"] = a.aliasBlock(ix)
			}
			if features["mappings"] {
				entry["mappings"] = ix.Mapping().Render()
			}
			if features["settings"] {
				entry["settings"] = humanSettings(renderSettings(ix, flat), ix, flat, human)
			}
			out[ix.Name] = entry
		}
		return 200, out, nil
	}
}

// humanSettings adds the readable creation date and version ES adds with ?human.
func humanSettings(s any, ix *store.Index, flat, human bool) any {
	if !human {
		return s
	}
	date := ix.Created.UTC().Format("2006-01-02T15:04:05.000Z")
	if flat {
		m := s.(map[string]any)
		m["index.creation_date_string"] = date
		m["index.version.created_string"] = engineVersion
		return m
	}
	idx, _ := s.(map[string]any)["index"].(map[string]any)
	if idx == nil {
		return s
	}
	idx["creation_date_string"] = date
	if v, ok := idx["version"].(map[string]any); ok {
		v["created_string"] = engineVersion
	}
	return s
}
