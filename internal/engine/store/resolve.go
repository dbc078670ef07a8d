package store

import (
	"errors"
	"path"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/engine/eserr"
)

// ValidateIndexName applies ES's index name rules.
func ValidateIndexName(name string) error {
	bad := func(why string) error {
		return eserr.New(400, "invalid_index_name_exception", "Invalid index name [%s], %s", name, why).
			With("index_uuid", "_na_").With("index", name)
	}
	switch {
	case name == "" || name == "." || name == "..":
		return bad("must not be '.' or '..'")
	case strings.ToLower(name) != name:
		return bad("must be lowercase")
	case strings.ContainsAny(name, "\\/*?\"<>| ,#:"):
		return bad("must not contain the following characters [ , \", *, \\, <, |, ,, >, /, ?]")
	case strings.HasPrefix(name, "_") || strings.HasPrefix(name, "-") || strings.HasPrefix(name, "+"):
		return bad("must not start with '_', '-', or '+'")
	case len(name) > 255:
		return bad("index name is too long")
	}
	return nil
}

// ResolveOpts mirror ES's ignore_unavailable and allow_no_indices.
type ResolveOpts struct {
	IgnoreUnavailable bool
	AllowNoIndices    bool
	// IgnoreAliases is set by index deletion: wildcards do not expand to aliases and an
	// alias name is refused (or skipped with IgnoreUnavailable), as ES's delete index does.
	IgnoreAliases bool
}

// Resolve expands an index expression (names, aliases, wildcards, _all, -exclusions)
// into concrete indices.
func (st *Store) Resolve(expr string, o ResolveOpts) ([]*Index, error) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	names, err := st.resolveLocked(expr, o)
	if err != nil {
		return nil, err
	}
	out := make([]*Index, 0, len(names))
	for _, n := range names {
		out = append(out, st.indices[n])
	}
	return out, nil
}

// ResolveForRead is Resolve for searches: each index is pinned against deletion until
// release is called, so a reader racing an alias swap plus delete still completes.
func (st *Store) ResolveForRead(expr string, o ResolveOpts) ([]*Index, func(), error) {
	st.mu.RLock()
	defer st.mu.RUnlock()
	names, err := st.resolveLocked(expr, o)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*Index, 0, len(names))
	for _, n := range names {
		ix := st.indices[n]
		ix.useMu.RLock()
		out = append(out, ix)
	}
	return out, func() {
		for _, ix := range out {
			ix.useMu.RUnlock()
		}
	}, nil
}

func (st *Store) resolveLocked(expr string, o ResolveOpts) ([]string, error) {
	set := map[string]bool{}
	parts := strings.Split(expr, ",")
	if expr == "" || expr == "_all" || expr == "*" {
		for n := range st.indices {
			set[n] = true
		}
		parts = nil
	}
	wildcardSeen := false
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if strings.HasPrefix(p, "-") && wildcardSeen {
			for _, n := range st.matchLocked(p[1:], !o.IgnoreAliases) {
				delete(set, n)
			}
			continue
		}
		if strings.Contains(p, "*") || p == "_all" {
			wildcardSeen = true
			if p == "_all" {
				p = "*"
			}
			matched := st.matchLocked(p, !o.IgnoreAliases)
			if len(matched) == 0 && !o.AllowNoIndices {
				// ES checks allow_no_indices for each wildcard expression.
				return nil, eserr.IndexNotFound(p)
			}
			for _, n := range matched {
				set[n] = true
			}
			continue
		}
		if err := st.resolveNameLocked(p, o, set); err != nil {
			return nil, err
		}
	}
	if len(set) == 0 && !o.AllowNoIndices {
		return nil, eserr.IndexNotFound(expr)
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// resolveNameLocked adds the index or the alias's indices a plain name stands for.
func (st *Store) resolveNameLocked(p string, o ResolveOpts, set map[string]bool) error {
	if st.indices[p] != nil {
		set[p] = true
		return nil
	}
	if links, ok := st.aliases[p]; ok {
		switch {
		case !o.IgnoreAliases:
			for n := range links {
				set[n] = true
			}
		case !o.IgnoreUnavailable:
			return eserr.IllegalArgument("The provided expression [%s] matches an alias, specify the corresponding concrete indices instead.", p)
		}
		return nil
	}
	if o.IgnoreUnavailable {
		return nil
	}
	if strings.HasPrefix(p, "_") {
		// Names starting with '_' are reserved for APIs; ES says so rather than "not found".
		return eserr.New(400, "invalid_index_name_exception", "Invalid index name [%s], must not start with '_'.", p).
			With("index_uuid", "_na_").With("index", p)
	}
	return eserr.IndexNotFound(p)
}

// matchLocked returns indices whose name, or (withAliases) an alias of which, matches the
// pattern.
func (st *Store) matchLocked(pattern string, withAliases bool) []string {
	var out []string
	for n := range st.indices {
		if ok, _ := path.Match(pattern, n); ok && !strings.HasPrefix(n, ".") {
			out = append(out, n)
		}
	}
	for a, links := range st.aliases {
		if ok, _ := path.Match(pattern, a); ok && withAliases {
			for n := range links {
				out = append(out, n)
			}
		}
	}
	return out
}

// WriteTarget resolves the index a document write goes to: an index, an alias's write
// index, or a new index auto-created like ES's action.auto_create_index. requireAlias
// refuses concrete indices and auto-creation.
func (st *Store) WriteTarget(name string, requireAlias bool) (*Index, error) {
	st.mu.RLock()
	ix := st.indices[name]
	links, isAlias := st.aliases[name]
	var target string
	var aliasErr error
	if isAlias {
		target, aliasErr = writeIndexOf(name, links)
	}
	st.mu.RUnlock()
	if isAlias {
		if aliasErr != nil {
			return nil, aliasErr
		}
		return st.Index(target), nil
	}
	if requireAlias {
		return nil, eserr.IndexNotFound(name).WithReason("no such index [" + name + "] and [require_alias] request flag is [true] and [" + name + "] is not an alias")
	}
	if ix != nil {
		return ix, nil
	}
	if err := ValidateIndexName(name); err != nil {
		return nil, err
	}
	ix, err := st.Create(name, CreateRequest{})
	if e := (*eserr.Error)(nil); errors.As(err, &e) && e.Type == "resource_already_exists_exception" {
		return st.Index(name), nil
	}
	return ix, err
}

func writeIndexOf(alias string, links map[string]*AliasMeta) (string, error) {
	var only, explicit string
	for n, l := range links {
		only = n
		if l.IsWriteIndex != nil && *l.IsWriteIndex {
			explicit = n
		}
	}
	if explicit != "" {
		return explicit, nil
	}
	if len(links) == 1 {
		if l := links[only]; l.IsWriteIndex == nil || *l.IsWriteIndex {
			return only, nil
		}
	}
	return "", eserr.IllegalArgument("no write index is defined for alias [%s]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index", alias)
}
