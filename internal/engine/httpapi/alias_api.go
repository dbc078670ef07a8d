package httpapi

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/store"
)

func parseAliasMeta(def any) (*store.AliasMeta, error) {
	m := &store.AliasMeta{}
	if def == nil {
		return m, nil
	}
	obj, ok := def.(map[string]any)
	if !ok {
		return nil, eserr.Parsing("alias definition must be an object")
	}
	for k, v := range obj {
		switch k {
		case "is_write_index":
			b, ok := v.(bool)
			if !ok {
				return nil, eserr.Parsing("Unsupported String type value [%v] for field [is_write_index] in alias", v)
			}
			m.IsWriteIndex = &b
		case "is_hidden":
			b, _ := v.(bool)
			m.IsHidden = &b
		case "filter":
			if _, ok := v.(map[string]any); !ok {
				return nil, eserr.Parsing("[filter] must be an object")
			}
			raw, _ := json.Marshal(v)
			m.Filter = raw
		case "routing", "index_routing", "search_routing":
			// Routing picks a shard; with one shard per index it never changes a result,
			// so it is kept only to be shown back, as ES shows it.
			r := fmt.Sprint(v)
			if k != "search_routing" {
				m.IndexRouting = r
			}
			if k != "index_routing" {
				m.SearchRouting = r
			}
		default:
			if _, isArr := v.([]any); isArr {
				return nil, eserr.Parsing("Unexpected token [START_ARRAY]")
			}
			return nil, eserr.Parsing("Unsupported field [%s]", k)
		}
	}
	return m, nil
}

func renderAliasMeta(m *store.AliasMeta) map[string]any {
	out := map[string]any{}
	if m.IsWriteIndex != nil {
		out["is_write_index"] = *m.IsWriteIndex
	}
	if m.IsHidden != nil {
		out["is_hidden"] = *m.IsHidden
	}
	if len(m.Filter) > 0 {
		out["filter"] = m.Filter
	}
	if m.IndexRouting != "" {
		out["index_routing"] = m.IndexRouting
	}
	if m.SearchRouting != "" {
		out["search_routing"] = m.SearchRouting
	}
	return out
}

func stringsOf(v any) ([]string, bool) {
	switch x := v.(type) {
	case string:
		return []string{x}, true
	case []any:
		var out []string
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

func parseAliasAction(typ string, body map[string]any) (store.AliasAction, error) {
	act := store.AliasAction{Type: typ}
	meta := map[string]any{}
	for k, v := range body {
		switch k {
		case "index", "indices":
			s, ok := stringsOf(v)
			if !ok {
				return act, eserr.Parsing("[%s] must be a string or array", k)
			}
			act.Indices = append(act.Indices, s...)
		case "alias", "aliases":
			s, ok := stringsOf(v)
			if !ok {
				return act, eserr.Parsing("[%s] must be a string or array", k)
			}
			act.Aliases = append(act.Aliases, s...)
		case "must_exist":
			b, _ := v.(bool)
			act.MustExist = &b
		default:
			meta[k] = v
		}
	}
	if act.MustExist != nil && typ != "remove" {
		return act, eserr.IllegalArgument("[must_exist] is unsupported for [%s]", typ)
	}
	if len(act.Indices) == 0 {
		return act, eserr.ActionValidation("One of [index] or [indices] is required")
	}
	if typ != "remove_index" && len(act.Aliases) == 0 {
		return act, eserr.ActionValidation("One of [alias] or [aliases] is required")
	}
	if typ == "remove_index" && len(meta) > 0 {
		return act, eserr.IllegalArgument("[remove_index] does not support extra parameters")
	}
	if typ == "add" {
		m, err := parseAliasMeta(meta)
		if err != nil {
			return act, err
		}
		act.Meta = *m
	} else if len(meta) > 0 && typ == "remove" {
		return act, eserr.Parsing("[remove] unknown field [%s]", firstKey(meta))
	}
	return act, nil
}

func firstKey(m map[string]any) string {
	for k := range m {
		return k
	}
	return ""
}

func (a *API) updateAliases(q *req) (int, any, error) {
	var body struct {
		Actions []map[string]map[string]any `json:"actions"`
	}
	if err := json.Unmarshal(q.body, &body); err != nil {
		return 0, nil, eserr.XContentParse("[1:1] [aliases] failed to parse field [actions]: %s", err.Error())
	}
	if len(body.Actions) == 0 {
		return 0, nil, eserr.ActionValidation("no actions specified")
	}
	var actions []store.AliasAction
	for _, entry := range body.Actions {
		if len(entry) != 1 {
			return 0, nil, eserr.Parsing("[aliases] each action must have exactly one type")
		}
		for typ, def := range entry {
			if typ != "add" && typ != "remove" && typ != "remove_index" {
				return 0, nil, eserr.Parsing("[aliases] unknown field [%s]", typ)
			}
			act, err := parseAliasAction(typ, def)
			if err != nil {
				return 0, nil, err
			}
			actions = append(actions, act)
		}
	}
	results, err := a.Store.UpdateAliases(actions)
	if err != nil {
		return 0, nil, err
	}
	errors := false
	for _, r := range results {
		if r.Err != nil {
			errors = true
		}
	}
	out := map[string]any{"acknowledged": true, "errors": errors}
	if errors {
		list := make([]any, len(results))
		for i, r := range results {
			item := map[string]any{"action": map[string]any{"type": r.Type, "indices": r.Indices, "aliases": r.Aliases}, "status": r.Status}
			if r.Err != nil {
				item["error"] = r.Err.BodyJSON()
			}
			list[i] = item
		}
		out["action_results"] = list
	}
	return 200, out, nil
}

func (a *API) putAlias(index, alias string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		body := map[string]any{}
		if len(strings.TrimSpace(string(q.body))) > 0 {
			if err := json.Unmarshal(q.body, &body); err != nil {
				return 0, nil, eserr.XContentParse("[1:1] failed to parse alias body: %s", err.Error())
			}
		}
		meta, err := parseAliasMeta(body)
		if err != nil {
			return 0, nil, err
		}
		indices := strings.Split(index, ",")
		if index == "_all" || index == "*" {
			indices = []string{"*"}
		}
		if _, err := a.Store.UpdateAliases([]store.AliasAction{{Type: "add", Indices: indices, Aliases: strings.Split(alias, ","), Meta: *meta}}); err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"acknowledged": true}, nil
	}
}

func (a *API) deleteAlias(index, alias string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		indices := strings.Split(index, ",")
		if index == "_all" {
			indices = []string{"*"}
		}
		aliases := strings.Split(alias, ",")
		if alias == "_all" {
			aliases = []string{"*"}
		}
		must := true
		if _, err := a.Store.UpdateAliases([]store.AliasAction{{Type: "remove", Indices: indices, Aliases: aliases, MustExist: &must}}); err != nil {
			return 0, nil, err
		}
		return 200, map[string]any{"acknowledged": true}, nil
	}
}

// getAlias serves GET /_alias, /_alias/{name}, /{index}/_alias[/{name}] and their HEADs.
func (a *API) getAlias(indexExpr, nameExpr string) func(q *req) (int, any, error) {
	return func(q *req) (int, any, error) {
		var indices []*store.Index
		var err error
		if indexExpr == "" {
			indices = a.Store.All()
		} else if indices, err = a.concrete(q, indexExpr, true); err != nil {
			return 0, nil, err
		}
		names := parseAliasNames(nameExpr)
		links := a.Store.AliasesOf()
		out := map[string]any{}
		found := map[string]bool{}
		for _, ix := range indices {
			aliases := map[string]any{}
			for alias, meta := range links[ix.Name] {
				if names.match(alias) {
					aliases[alias] = renderAliasMeta(meta)
					found[alias] = true
				}
			}
			if len(aliases) > 0 || !names.explicit() {
				out[ix.Name] = map[string]any{"aliases": aliases}
			}
		}
		if missing := names.missing(found); len(missing) > 0 {
			sort.Strings(missing)
			if len(missing) == 1 {
				out["error"] = "alias [" + missing[0] + "] missing"
			} else {
				out["error"] = "aliases [" + strings.Join(missing, ",") + "] missing"
			}
			out["status"] = 404
			return 404, out, nil
		}
		return 200, out, nil
	}
}
