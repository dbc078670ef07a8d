package searchquery

// Restriction is what a secured API key adds to every search it makes
// (docs/secured-keys.md): a filter ANDed with the request's, which the request's own
// filters can only narrow further, and a cap on the limit.
type Restriction struct {
	// Filters must hold for every hit; nil adds none.
	Filters *Filter
	// MaxHits caps the request's limit (a request asking more gets MaxHits); 0 leaves
	// the access's cap.
	MaxHits int
}

// restrictionPlace names the restriction's filters in errors: the request did not
// write them, the key's maker did.
const restrictionPlace = "securedKey.filters"

// Restricted returns r narrowed by a secured key's restriction; nil leaves r as it is.
func (r Access) Restricted(k *Restriction) Access {
	r.Key = k
	return r
}

// keyFilter builds the restriction's filter, checked as a request's filters are.
func (r Access) keyFilter(s Schema, p *problems) map[string]any {
	if r.Key == nil || r.Key.Filters == nil {
		return nil
	}
	fb := &filterBuilder{allowed: r.filterable(), schema: s, p: p}
	return fb.build(r.Key.Filters, restrictionPlace, 1)
}

// keyCap lowers limit to the restriction's hit cap.
func (r Access) keyCap(limit int) int {
	if r.Key == nil || r.Key.MaxHits <= 0 {
		return limit
	}
	return min(limit, r.Key.MaxHits)
}
