package httpapi

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
	"github.com/aislehq/aisle/internal/engine/searcher"
	"github.com/aislehq/aisle/internal/engine/store"
)

func noHandler(q *req) error {
	return &eserr.Error{Status: 400, Type: "no_handler", Reason: fmt.Sprintf("no handler found for uri [%s] and method [%s]", q.r.URL.RequestURI(), q.r.Method),
		RootCause: []*eserr.Error{}}
}

func (a *API) info(q *req) (int, any, error) {
	return 200, map[string]any{
		"name": "aisle-node", "cluster_name": "aisle", "cluster_uuid": a.ClusterUUID,
		"version": map[string]any{
			"number": engineVersion, "build_flavor": "default", "build_type": "tar",
			"build_hash": "aisle", "build_date": "2025-01-01T00:00:00.000Z", "build_snapshot": false,
			"lucene_version": "9.12.2", "minimum_wire_compatibility_version": "7.17.0",
			"minimum_index_compatibility_version": "7.0.0",
		},
		"tagline": "You Know, for Search",
	}, nil
}

func decodeObject(body []byte) (map[string]any, error) {
	m, err := searcher.DecodeBody(body)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (a *API) createIndex(name string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		body, err := decodeObject(q.body)
		if err != nil {
			return 0, nil, err
		}
		cr := store.CreateRequest{}
		for k, v := range body {
			switch k {
			case "settings":
				sm, ok := v.(map[string]any)
				if !ok {
					return 0, nil, eserr.Parsing("[settings] must be an object")
				}
				cr.Settings = store.FlattenSettings(sm)
			case "mappings":
				raw, _ := json.Marshal(v)
				m, err := mapper.Parse(raw)
				if err != nil {
					return 0, nil, err
				}
				cr.Mapping = m
			case "aliases":
				am, ok := v.(map[string]any)
				if !ok {
					return 0, nil, eserr.Parsing("[aliases] must be an object")
				}
				cr.Aliases = map[string]*store.AliasMeta{}
				for alias, def := range am {
					meta, err := parseAliasMeta(def)
					if err != nil {
						return 0, nil, err
					}
					cr.Aliases[alias] = meta
				}
			default:
				return 0, nil, eserr.Parsing("unknown key [%s] for create index", k)
			}
		}
		if _, err := a.Store.Create(name, cr); err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"acknowledged": true, "shards_acknowledged": true, "index": name}, nil
	}
}

func (a *API) concrete(q *req, expr string, allowNo bool) ([]*store.Index, error) {
	o, err := a.resolveOpts(q, allowNo)
	if err != nil {
		return nil, err
	}
	return a.Store.Resolve(expr, o)
}

// pinned resolves indices for reading and pins them until the request ends.
func (a *API) pinned(q *req, expr string, allowNo bool) ([]*store.Index, error) {
	o, err := a.resolveOpts(q, allowNo)
	if err != nil {
		return nil, err
	}
	indices, release, err := a.Store.ResolveForRead(expr, o)
	if err != nil {
		return nil, err
	}
	q.cleanup = append(q.cleanup, release)
	return indices, nil
}

func (a *API) deleteIndex(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		o, err := a.resolveOpts(q, true)
		if err != nil {
			return 0, nil, err
		}
		o.IgnoreAliases = true
		indices, err := a.Store.Resolve(expr, o)
		if err != nil {
			return 0, nil, err
		}
		names := make([]string, len(indices))
		for i, ix := range indices {
			names[i] = ix.Name
		}
		if err := a.Store.Delete(names); err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"acknowledged": true}, nil
	}
}

func (a *API) existsIndex(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if _, err := a.concrete(q, expr, false); err != nil {
			return 404, nil, nil
		}
		return 200, nil, nil
	}
}

func renderSettings(ix *store.Index, flat bool) any {
	s := map[string]any{}
	for k, v := range ix.Settings().Flat {
		s[k] = v
	}
	s["index.uuid"] = ix.UUID
	s["index.provided_name"] = ix.Name
	s["index.creation_date"] = strconv.FormatInt(ix.Created.UnixMilli(), 10)
	s["index.version.created"] = "8521000"
	if _, ok := s["index.routing.allocation.include._tier_preference"]; !ok {
		s["index.routing.allocation.include._tier_preference"] = "data_content"
	}
	if flat {
		return s
	}
	return store.Unflatten(s)
}

func (a *API) aliasBlock(ix *store.Index) map[string]any {
	out := map[string]any{}
	for alias, meta := range a.Store.AliasesOf()[ix.Name] {
		out[alias] = renderAliasMeta(meta)
	}
	return out
}

func (a *API) getMapping(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		out := map[string]any{}
		for _, ix := range indices {
			out[ix.Name] = map[string]any{"mappings": ix.Mapping().Render()}
		}
		return 200, out, nil
	}
}

func (a *API) putMapping(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		if len(strings.TrimSpace(string(q.body))) == 0 {
			return 0, nil, eserr.ActionValidation("mapping source is empty")
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(q.body, &top) == nil && len(top) == 1 {
			if _, typed := top["_doc"]; typed {
				return 0, nil, eserr.IllegalArgument("Types cannot be provided in put mapping requests")
			}
		}
		m, err := mapper.Parse(q.body)
		if err != nil {
			return 0, nil, err
		}
		indices, err := a.concrete(q, expr, false)
		if err != nil {
			return 0, nil, err
		}
		if q.param("write_index_only") == "true" && len(indices) > 1 {
			if ix, err := a.Store.WriteTarget(expr, true); err == nil {
				indices = []*store.Index{ix}
			}
		}
		for _, ix := range indices {
			if _, err := mapper.Merge(ix.Mapping(), m); err != nil {
				return 0, nil, err
			}
		}
		for _, ix := range indices {
			if err := ix.PutMapping(m); err != nil {
				return 0, nil, err
			}
		}
		return 200, map[string]any{"acknowledged": true}, nil
	}
}

func (a *API) getSettings(expr, names string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		flat := q.param("flat_settings") == "true"
		out := map[string]any{}
		for _, ix := range indices {
			all := renderSettings(ix, true).(map[string]any)
			if names != "" && names != "_all" {
				kept := map[string]any{}
				for k, v := range all {
					for _, pat := range strings.Split(names, ",") {
						if ok, _ := path.Match(pat, k); ok || k == pat {
							kept[k] = v
						}
					}
				}
				all = kept
			}
			var rendered any = all
			if !flat {
				rendered = store.Unflatten(all)
			}
			out[ix.Name] = map[string]any{"settings": rendered}
		}
		return 200, out, nil
	}
}

func (a *API) putSettings(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		body, err := decodeObject(q.body)
		if err != nil {
			return 0, nil, err
		}
		if len(body) == 0 {
			return 0, nil, eserr.ActionValidation("no settings to update")
		}
		if inner, ok := body["settings"].(map[string]any); ok && len(body) == 1 {
			body = inner
		}
		upd := store.FlattenSettings(body)
		indices, err := a.concrete(q, expr, false)
		if err != nil {
			return 0, nil, err
		}
		for _, ix := range indices {
			if err := store.ValidateUpdate(ix.Settings().Flat, upd, ix.Name, ix.UUID); err != nil {
				return 0, nil, err
			}
		}
		preserve := q.param("preserve_existing") == "true"
		for _, ix := range indices {
			u := upd
			if preserve {
				u = map[string]any{}
				for k, v := range upd {
					if _, exists := ix.Settings().Flat[k]; !exists {
						u[k] = v
					}
				}
			}
			if err := a.Store.UpdateSettings(ix, u); err != nil {
				return 0, nil, err
			}
		}
		return 200, map[string]any{"acknowledged": true}, nil
	}
}

func shardTotals(indices []*store.Index) map[string]any {
	total, ok := 0, 0
	for _, ix := range indices {
		shards := ix.Settings().Int("index.number_of_shards", 1)
		total += shards * (1 + ix.Settings().Int("index.number_of_replicas", 1))
		ok += shards
	}
	return map[string]any{"total": total, "successful": ok, "failed": 0}
}

func (a *API) refresh(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		for _, ix := range indices {
			if err := ix.Refresh(); err != nil {
				return 0, nil, err
			}
		}
		return 200, map[string]any{"_shards": shardTotals(indices)}, nil
	}
}

func (a *API) stats(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		out := map[string]any{}
		var sum int
		for _, ix := range indices {
			n := int(ix.SearchableCount())
			sum += n
			prim := map[string]any{"docs": map[string]any{"count": n, "deleted": 0}}
			out[ix.Name] = map[string]any{"uuid": ix.UUID, "health": "green", "status": "open", "primaries": prim, "total": prim}
		}
		all := map[string]any{"docs": map[string]any{"count": sum, "deleted": 0}}
		return 200, map[string]any{"_shards": shardTotals(indices), "_all": map[string]any{"primaries": all, "total": all}, "indices": out}, nil
	}
}

func (a *API) health(expr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices, err := a.concrete(q, expr, true)
		if err != nil {
			return 0, nil, err
		}
		// One node holds every primary; replicas can never be assigned, so an index with
		// replicas is yellow, exactly as on a one-node Elasticsearch cluster.
		status, unassigned := "green", 0
		for _, ix := range indices {
			if r := ix.Settings().Int("index.number_of_replicas", 1); r > 0 {
				status, unassigned = "yellow", unassigned+r
			}
		}
		n := len(indices)
		pct := 100.0
		if n+unassigned > 0 {
			pct = float64(n) * 100 / float64(n+unassigned)
		}
		return 200, map[string]any{"cluster_name": "aisle", "status": status, "timed_out": false,
			"number_of_nodes": 1, "number_of_data_nodes": 1, "active_primary_shards": n, "active_shards": n,
			"relocating_shards": 0, "initializing_shards": 0, "unassigned_shards": unassigned, "unassigned_primary_shards": 0,
			"delayed_unassigned_shards": 0, "number_of_pending_tasks": 0, "number_of_in_flight_fetch": 0,
			"task_max_waiting_in_queue_millis": 0, "active_shards_percent_as_number": pct}, nil
	}
}
