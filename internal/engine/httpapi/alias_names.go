package httpapi

import (
	"path"
	"strings"
)

// aliasNames is the name list of GET _alias/{name}, with ES's ordered semantics: each name
// or pattern adds the aliases it matches, and a "-pattern" removes from what earlier
// entries added (Metadata.findAliases). An empty list, "_all" or "*" matches every alias.
type aliasNames []string

func parseAliasNames(expr string) aliasNames {
	if expr == "" {
		return nil
	}
	return strings.Split(expr, ",")
}

func (ns aliasNames) matchAll() bool {
	if len(ns) == 0 {
		return true
	}
	for _, n := range ns {
		if n == "_all" || n == "*" {
			return true
		}
	}
	return false
}

// explicit reports whether the request named aliases (even "_all"): only then are indices
// without a matching alias left out of the response, as in RestGetAliasesAction.
func (ns aliasNames) explicit() bool { return len(ns) > 0 }

func (ns aliasNames) match(alias string) bool {
	matched := ns.matchAll()
	for _, n := range ns {
		if strings.HasPrefix(n, "-") {
			if matched && simpleMatch(n[1:], alias) {
				matched = false
			}
		} else if !matched {
			matched = n == "_all" || simpleMatch(n, alias)
		}
	}
	return matched
}

// missing lists the explicitly named aliases that are not in the result and not excluded by
// a later "-pattern"; a "-name" before the first wildcard is a literal name
// (RestGetAliasesAction).
func (ns aliasNames) missing(found map[string]bool) []string {
	firstWildcard := len(ns)
	for i, n := range ns {
		if strings.Contains(n, "*") {
			firstWildcard = i
			break
		}
	}
	var out []string
	for i, n := range ns {
		if n == "_all" || strings.Contains(n, "*") || (i > firstWildcard && strings.HasPrefix(n, "-")) {
			continue
		}
		if !ns.excludedAfter(i, firstWildcard) && !found[n] {
			out = append(out, n)
		}
	}
	return out
}

func (ns aliasNames) excludedAfter(i, firstWildcard int) bool {
	for j := max(i+1, firstWildcard); j < len(ns); j++ {
		if e, ok := strings.CutPrefix(ns[j], "-"); ok && (e == "_all" || simpleMatch(e, ns[i])) {
			return true
		}
	}
	return false
}

// simpleMatch is ES's Regex.simpleMatch: only '*' is special.
func simpleMatch(pattern, s string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == s
	}
	ok, _ := path.Match(strings.NewReplacer("?", "\\?", "[", "\\[", "\\", "\\\\").Replace(pattern), s)
	return ok
}
