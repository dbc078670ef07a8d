package searchquery

import (
	"slices"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// Access says what a request may ask of an index: from its settings for keyed search, and
// narrowed by the public search policy for browsers.
type Access struct {
	Settings searchv1alpha1.IndexSettings
	// Public marks a browser search: Policy applies. A keyed search's Policy is the
	// index's too, applied to nothing: why not reads its forced filters (whynot.go).
	Public bool
	Policy searchv1alpha1.PublicSearchPolicy
	// Key is a secured API key's restriction (restriction.go); nil for other keys.
	Key *Restriction
}

// KeyedAccess is what POST /search may ask.
func KeyedAccess(s searchv1alpha1.IndexSettings) Access {
	return Access{Settings: s}
}

// PublicAccess is what public search may ask under policy p (maxHits 0 means the
// default cap).
func PublicAccess(s searchv1alpha1.IndexSettings, p searchv1alpha1.PublicSearchPolicy) Access {
	return Access{Settings: s, Public: true, Policy: p}
}

// DefaultPublicMaxHits is the public hit cap when the policy does not set one.
const DefaultPublicMaxHits = 20

// maxLimit is the largest limit a request may ask for (400 above).
func (r Access) maxLimit() int {
	if r.Public {
		return MaxPublicLimit
	}
	return MaxLimit
}

// HitCap is the most hits returned, whatever the request asks: the policy's maxHits for
// browsers, a secured key's maxHits.
func (r Access) HitCap() int { return r.hitCap() }

// Retrievable returns the fields a hit may show (nil: all).
func (r Access) Retrievable() []string { return r.retrievable() }

func (r Access) hitCap() int {
	return r.keyCap(r.policyCap())
}

func (r Access) policyCap() int {
	if !r.Public {
		return MaxLimit
	}
	if r.Policy.MaxHits > 0 {
		return int(min(r.Policy.MaxHits, MaxPublicLimit))
	}
	return DefaultPublicMaxHits
}

// list is one kind of permission: the fields allowed, and how to name the list in errors.
type list struct {
	allowed []string
	// is completes `"x" is ...`, label names the list: "a filterable field" and
	// "filterable fields", or "allowed in public filters" and "allowed".
	is, label string
	// unset are the fields a public policy allows that setting, the settings' list, does not.
	unset   []string
	setting string
}

func (l list) has(path string) bool { return slices.Contains(l.allowed, path) }

func (r Access) filterable() list {
	return r.narrow(paths(r.Settings.FilterableFields), r.Policy.AllowedFilters, "filterable", "filters")
}

func (r Access) facetable() list {
	return r.narrow(paths(r.Settings.FacetFields), r.Policy.AllowedFacets, "facet", "facets")
}

func (r Access) sortable() list {
	return r.narrow(paths(r.Settings.SortableFields), r.Policy.AllowedSorts, "sortable", "sorts")
}

// narrow intersects the settings' list with the policy's for browsers: a field must be
// configured and allowed.
func (r Access) narrow(settings []string, policy []searchv1alpha1.FieldPath, what, publicWhat string) list {
	if !r.Public {
		return list{allowed: settings, is: "a " + what + " field", label: what + " fields"}
	}
	var out, unset []string
	for _, p := range policy {
		if slices.Contains(settings, string(p)) {
			out = append(out, string(p))
		} else {
			unset = append(unset, string(p))
		}
	}
	return list{allowed: out, is: "allowed in public " + publicWhat, label: "allowed", unset: unset, setting: what + "Fields"}
}

// retrievable returns the fields a hit may show (nil: all).
func (r Access) retrievable() []string {
	if !r.Public {
		return nil
	}
	return paths(r.Policy.RetrievableFields)
}

func paths(fs []searchv1alpha1.FieldPath) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// searchable lists the searchable fields (nil allowed: every text field is).
func (r Access) searchable() list {
	var paths []string
	for _, f := range r.Settings.SearchableFields {
		paths = append(paths, string(f.Path))
	}
	return list{allowed: paths, is: "a searchable field", label: "searchable fields"}
}
