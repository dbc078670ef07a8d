package searchquery

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrInvalid: the request breaks a rule. The error's message (after the sentinel's)
// names each bad place, for example `filters.and[1].field: "color" is not a filterable
// field (filterable: brand, price)`.
var ErrInvalid = errors.New("invalid search request")

// problems collects every rule a request breaks, so one 400 names them all.
type problems []string

func (p *problems) add(place, format string, args ...any) {
	*p = append(*p, place+": "+fmt.Sprintf(format, args...))
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrInvalid, strings.Join(p, "; "))
}

// notAllowed says that path is not in l, listing what is.
func notAllowed(path string, l list) string {
	if slices.Contains(l.unset, path) {
		return fmt.Sprintf("%q is not in the index's %s (the public policy allows it, but a field must be in both)", path, l.setting)
	}
	allowed := "none"
	if len(l.allowed) > 0 {
		allowed = strings.Join(l.allowed, ", ")
	}
	return fmt.Sprintf("%q is not %s (%s: %s)", path, l.is, l.label, allowed)
}

// checkPaging validates q, limit, offset and maxValuesPerFacet, returning the limit to
// use (capped by the public policy).
func checkPaging(req *Request, r Access, p *problems) int {
	if len(req.Q) > MaxQueryLength {
		p.add("q", "must be at most %d bytes", MaxQueryLength)
	}
	limit := DefaultLimit
	if req.Limit != nil {
		limit = *req.Limit
		if limit < 1 || limit > r.maxLimit() {
			p.add("limit", "must be between 1 and %d", r.maxLimit())
		}
	}
	limit = min(limit, r.hitCap())
	if req.Offset < 0 {
		p.add("offset", "must not be negative")
	} else if req.Offset > MaxWindow-limit { // offset+limit could overflow
		p.add("offset", "offset + limit must be at most %d", MaxWindow)
	}
	if v := req.MaxValuesPerFacet; v < 0 || v > MaxFacetValues {
		p.add("maxValuesPerFacet", "must be between 1 and %d", MaxFacetValues)
	}
	return limit
}

func checkFacets(req *Request, r Access, p *problems) {
	allowed := r.facetable()
	for i, f := range req.Facets {
		if !allowed.has(f) {
			p.add(fmt.Sprintf("facets[%d]", i), "%s", notAllowed(f, allowed))
		}
	}
}

func checkSort(req *Request, r Access, p *problems) {
	allowed := r.sortable()
	for i, s := range req.Sort {
		place := fmt.Sprintf("sort[%d]", i)
		if !allowed.has(s.Field) {
			p.add(place+".field", "%s", notAllowed(s.Field, allowed))
		}
		if s.Order != "" && s.Order != "asc" && s.Order != "desc" {
			p.add(place+".order", "must be asc or desc")
		}
	}
}

// checkFields validates the requested fields; a browser may only ask for retrievable ones.
func checkFields(req *Request, r Access, p *problems) {
	allowed := r.retrievable()
	for i, f := range req.Fields {
		if f == "" {
			p.add(fmt.Sprintf("fields[%d]", i), "must not be empty")
			continue
		}
		if allowed != nil && !(list{allowed: allowed}).has(f) {
			p.add(fmt.Sprintf("fields[%d]", i), "%s", notAllowed(f, list{allowed: allowed, is: "a retrievable field", label: "retrievable fields"}))
		}
	}
}

// checkScalar accepts the values a condition may compare with: strings, numbers, booleans.
func checkScalar(v any) bool {
	switch v.(type) {
	case string, float64, bool:
		return true
	}
	return false
}

// checkBound validates a range bound against the field: a number for numbers (one the
// field's type can hold), a date or epoch milliseconds for dates, either for a field no
// record holds yet; booleans and other types have no range.
func checkBound(v any, f Field) string {
	const either = "must be a number or a date (RFC 3339 or yyyy-mm-dd)"
	switch f.Kind {
	case KindNumber:
		if _, isNumber := v.(float64); !isNumber {
			return either
		}
		return fitValue(f, v)
	case KindDate:
		if !dateOf(v) {
			return either
		}
		return ""
	case KindBool, KindOther:
		return "field " + strconv.Quote(f.Path) + " has no range: it holds " + string(f.Kind) + " values"
	}
	switch b := v.(type) {
	case float64:
		if f.Kind == KindUnknown {
			return ""
		}
	case string:
		if isDate(b) {
			return ""
		}
	}
	return either
}

func isDate(s string) bool {
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return true
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// checkRanking validates the ranking's request fields: the matching strategy, explain
// (keyed searches only: it shows custom ranking values a policy may not return) and the
// snippets (searchable text fields, returned to browsers, 1 to 100 words).
func checkRanking(req *Request, r Access, s Schema, p *problems) {
	switch req.MatchingStrategy {
	case "", StrategyFrequency, StrategyAll, StrategyLast, StrategyAny:
	default:
		p.add("matchingStrategy", "must be frequency, all, last or any")
	}
	if req.Explain.On && r.Public {
		p.add("explain", "is only available with a key")
	}
	if len(req.Snippets) > MaxSnippets {
		p.add("snippets", "at most %d", MaxSnippets)
	}
	for i, sn := range req.Snippets {
		checkSnippet(sn, fmt.Sprintf("snippets[%d]", i), r, s, p)
	}
}

func checkSnippet(sn SnippetRequest, place string, r Access, s Schema, p *problems) {
	searchable, retrievable := r.searchable(), r.retrievable()
	switch {
	case sn.Field == "":
		p.add(place+".field", "is required")
	case searchable.allowed != nil && !searchable.has(sn.Field):
		p.add(place+".field", "%s", notAllowed(sn.Field, searchable))
	case len(retrievable) > 0 && !(list{allowed: retrievable}).has(sn.Field):
		p.add(place+".field", "%s", notAllowed(sn.Field, list{allowed: retrievable, is: "a retrievable field", label: "retrievable fields"}))
	case known(s, sn.Field) && s[sn.Field].Kind != KindString:
		p.add(place+".field", "%q holds %s values, not text", sn.Field, s[sn.Field].Kind)
	}
	if sn.Words != nil && (*sn.Words < 1 || *sn.Words > MaxSnippetWords) {
		p.add(place+".words", "must be between 1 and %d", MaxSnippetWords)
	}
}

// known reports a field the mapping holds.
func known(s Schema, path string) bool {
	f, ok := s[path]
	return ok && f.Kind != KindUnknown
}
