package indexsettings

import (
	"fmt"
	"slices"
	"strings"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// Limits of a facet ordering (the CRD states them for the settings; a rule's
// renderingContent is checked here only).
const (
	MaxFacetOrderItems  = 100
	MaxFacetOrderValues = 100
	MaxFacetValueBytes  = 256
)

// sortRemainingBy are the orders of the values a facet ordering does not list.
var sortRemainingBy = []string{"count", "alpha", "hidden"}

// checkFacetOrdering: the settings' facetOrdering, by CheckFacetOrdering's rules.
func checkFacetOrdering(s searchv1alpha1.IndexSettings) []FieldError {
	return CheckFacetOrdering(s.FacetOrdering, FacetOrdering, s.FacetFields)
}

// CheckFacetOrdering finds the problems of fo, placed under place: facets and values
// name facet fields (or "*" once, for the others), no value is listed twice or both
// pinned and hidden, and the lists keep their limits.
func CheckFacetOrdering(fo *searchv1alpha1.FacetOrdering, place string, facetFields []searchv1alpha1.FieldPath) []FieldError {
	if fo == nil {
		return nil
	}
	var out []FieldError
	isFacet := func(f string) bool { return slices.Contains(facetFields, searchv1alpha1.FieldPath(f)) }
	notFacet := func(f string) string {
		return fmt.Sprintf("%q is not a facet field (facet fields: %s)", f, strings.Join(strs(facetFields), ", "))
	}
	if fo.Facets != nil {
		out = append(out, checkList(place+".facets.order", fo.Facets.Order, func(f string) string {
			if f != "*" && !isFacet(f) {
				return notFacet(f)
			}
			return ""
		})...)
	}
	if len(fo.Values) > MaxFacetOrderValues {
		out = append(out, FieldError{place + ".values", fmt.Sprintf("at most %d facets", MaxFacetOrderValues)})
	}
	for _, f := range sortedFields(fo.Values) {
		v, at := fo.Values[f], place+".values."+f
		if !isFacet(f) {
			out = append(out, FieldError{at, notFacet(f)})
		}
		if v.SortRemainingBy != "" && !slices.Contains(sortRemainingBy, v.SortRemainingBy) {
			out = append(out, FieldError{at + ".sortRemainingBy", "must be count, alpha or hidden"})
		}
		out = append(out, checkList(at+".order", v.Order, nil)...)
		out = append(out, checkList(at+".hide", v.Hide, func(h string) string {
			if slices.Contains(v.Order, h) {
				return fmt.Sprintf("%q is also in order: a value is pinned or hidden", h)
			}
			return ""
		})...)
	}
	return out
}

// checkList: at most MaxFacetOrderItems entries of 1 to MaxFacetValueBytes bytes, each
// once, and each without the problem entry names (nil: none).
func checkList(at string, items []string, entry func(string) string) []FieldError {
	var out []FieldError
	if len(items) > MaxFacetOrderItems {
		return append(out, FieldError{at, fmt.Sprintf("at most %d entries", MaxFacetOrderItems)})
	}
	for i, it := range items {
		place := fmt.Sprintf("%s[%d]", at, i)
		switch {
		case it == "" || len(it) > MaxFacetValueBytes:
			out = append(out, FieldError{place, fmt.Sprintf("must be 1 to %d bytes", MaxFacetValueBytes)})
		case slices.Index(items, it) < i:
			out = append(out, FieldError{place, fmt.Sprintf("%q is listed twice", it)})
		case entry != nil && entry(it) != "":
			out = append(out, FieldError{place, entry(it)})
		}
	}
	return out
}

func sortedFields(m map[string]searchv1alpha1.FacetValuesOrder) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
