package store

import (
	"encoding/json"
	"path"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// AliasAction is one entry of POST /_aliases, with index and alias names already listed
// (wildcards are expanded by the store).
type AliasAction struct {
	Type      string // add, remove, remove_index
	Indices   []string
	Aliases   []string
	Meta      AliasMeta
	MustExist *bool
}

// ActionResult reports one action for ES 8.14+'s action_results.
type ActionResult struct {
	Type    string
	Indices []string
	Aliases []string
	Status  int
	Err     *eserr.Error
}

// UpdateAliases applies all actions atomically: readers resolve an alias either before or
// after the whole request, never in between, which makes remove+add a safe swap.
func (st *Store) UpdateAliases(actions []AliasAction) ([]ActionResult, error) {
	st.mu.Lock()
	next := map[string]map[string]*AliasMeta{}
	for a, links := range st.aliases {
		next[a] = map[string]*AliasMeta{}
		for n, l := range links {
			next[a][n] = l
		}
	}
	var drop, dropping []string
	for _, act := range actions {
		if act.Type == "remove_index" {
			dropping = append(dropping, act.Indices...)
		}
	}
	results := make([]ActionResult, len(actions))
	for i, act := range actions {
		res, dropped, err := st.applyAliasAction(next, act, dropping)
		if err != nil {
			st.mu.Unlock()
			return nil, err
		}
		results[i] = res
		drop = append(drop, dropped...)
	}
	st.aliases = next
	var droppedIx []*Index
	for _, n := range drop {
		if ix := st.indices[n]; ix != nil {
			droppedIx = append(droppedIx, ix)
			delete(st.indices, n)
			for a, links := range st.aliases {
				delete(links, n)
				if len(links) == 0 {
					delete(st.aliases, a)
				}
			}
		}
	}
	st.mu.Unlock()
	if err := st.saveMeta(); err != nil {
		return nil, err
	}
	for _, ix := range droppedIx {
		ix.drop()
	}
	return results, nil
}

func (st *Store) expandIndices(pats []string) ([]string, error) {
	set := map[string]bool{}
	for _, p := range pats {
		if strings.Contains(p, "*") {
			for n := range st.indices {
				if ok, _ := path.Match(p, n); ok {
					set[n] = true
				}
			}
			continue
		}
		if st.indices[p] == nil {
			if _, isAlias := st.aliases[p]; isAlias {
				return nil, eserr.IllegalArgument("The provided expression [%s] matches an alias, specify the corresponding concrete indices instead.", p)
			}
			return nil, eserr.IndexNotFound(p)
		}
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, eserr.IndexNotFound(strings.Join(pats, ","))
	}
	return out, nil
}

func (st *Store) applyAliasAction(next map[string]map[string]*AliasMeta, act AliasAction, dropping []string) (ActionResult, []string, error) {
	indices, err := st.expandIndices(act.Indices)
	if err != nil {
		return ActionResult{}, nil, err
	}
	res := ActionResult{Type: act.Type, Indices: indices, Aliases: act.Aliases, Status: 200}
	switch act.Type {
	case "add":
		return res, nil, st.addAliases(next, act, indices, dropping)
	case "remove":
		missing := removeAliases(next, act.Aliases, indices)
		if len(missing) == 0 {
			return res, nil, nil
		}
		e := eserr.New(404, "aliases_not_found_exception", "aliases [%s] missing", strings.Join(missing, ",")).
			With("resource.type", "aliases").With("resource.id", strings.Join(missing, ","))
		if act.MustExist != nil && *act.MustExist {
			return res, nil, e
		}
		res.Status, res.Err = 404, e
	case "remove_index":
		return res, indices, nil
	}
	return res, nil, nil
}

// addAliases links the action's aliases to indices; an alias may not be named like an
// index, unless the same request removes that index.
func (st *Store) addAliases(next map[string]map[string]*AliasMeta, act AliasAction, indices, dropping []string) error {
	for _, a := range act.Aliases {
		if st.indices[a] != nil && !containsStr(dropping, a) {
			return eserr.New(400, "invalid_alias_name_exception", "Invalid alias name [%s]: an index or data stream exists with the same name as the alias", a)
		}
		if err := ValidateIndexName(a); err != nil {
			return eserr.New(400, "invalid_alias_name_exception", "Invalid alias name [%s]: %s", a, strings.TrimPrefix(eserr.As(err).Reason, "Invalid index name ["+a+"], "))
		}
		if next[a] == nil {
			next[a] = map[string]*AliasMeta{}
		}
		for _, n := range indices {
			m := act.Meta
			next[a][n] = &m
		}
	}
	return nil
}

// removeAliases unlinks the aliases matching each pattern from indices and returns the
// patterns that matched no link.
func removeAliases(next map[string]map[string]*AliasMeta, patterns, indices []string) (missing []string) {
	for _, a := range patterns {
		matched := false
		for alias, links := range next {
			if ok, _ := path.Match(a, alias); !ok && alias != a {
				continue
			}
			for _, n := range indices {
				if _, ok := links[n]; ok {
					delete(links, n)
					matched = true
				}
			}
			if len(links) == 0 {
				delete(next, alias)
			}
		}
		if !matched {
			missing = append(missing, a)
		}
	}
	return missing
}

// AliasesOf returns alias links per index, for GET /_alias and GET /{index}.
func (st *Store) AliasesOf() map[string]map[string]*AliasMeta {
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := map[string]map[string]*AliasMeta{}
	for a, links := range st.aliases {
		for n, l := range links {
			if out[n] == nil {
				out[n] = map[string]*AliasMeta{}
			}
			out[n][a] = l
		}
	}
	return out
}

// AliasNames lists every alias name.
func (st *Store) AliasNames() []string {
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := make([]string, 0, len(st.aliases))
	for a := range st.aliases {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// AliasFilters returns, per index, the filters of the aliases an expression names. An
// index also reached by its own name or through an unfiltered alias gets no filter.
func (st *Store) AliasFilters(expr string) map[string][]json.RawMessage {
	st.mu.RLock()
	defer st.mu.RUnlock()
	out := map[string][]json.RawMessage{}
	unfiltered := map[string]bool{}
	for _, part := range strings.Split(expr, ",") {
		links, ok := st.aliases[part]
		if !ok {
			unfiltered[part] = true
			continue
		}
		for n, l := range links {
			if len(l.Filter) == 0 {
				unfiltered[n] = true
			} else {
				out[n] = append(out[n], l.Filter)
			}
		}
	}
	for n := range unfiltered {
		delete(out, n)
	}
	return out
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
