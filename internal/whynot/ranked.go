package whynot

import (
	"reflect"

	"github.com/aislehq/aisle/internal/searchquery"
)

// Beat is the criterion by which one hit ranked before another, and both its values.
type Beat struct {
	Criterion string
	// Field is the custom ranking or sort field that differed (custom and sort only).
	Field        string
	Above, Below any
}

// Order is how a search orders hits: its criteria (explain's names, most significant
// first), and the fields of custom ranking and of the request's sort, in their order.
type Order struct {
	Criteria     []string
	Custom, Sort []string
}

// Beaten is the first criterion of o on which above and below differ, as explain reads
// them: false when they tie on all of them (the relevance tie-break, BM25, put above
// first).
func Beaten(o Order, above, below *searchquery.Ranking) (Beat, bool) {
	if above == nil || below == nil {
		return Beat{}, false
	}
	for _, c := range o.Criteria {
		if b, ok := differ(c, o, above, below); ok {
			return b, true
		}
	}
	return Beat{}, false
}

// differ compares a and b on criterion c.
func differ(c string, o Order, a, b *searchquery.Ranking) (Beat, bool) {
	var av, bv any
	switch c {
	case "words":
		av, bv = a.Words, b.Words
	case "typo":
		av, bv = a.Typo, b.Typo
	case "proximity":
		av, bv = a.Proximity, b.Proximity
	case "attribute":
		av, bv = a.Attribute, b.Attribute
	case "exact":
		av, bv = a.Exact, b.Exact
	case "rules":
		av, bv = intOr0(a.Rules), intOr0(b.Rules)
	case "custom":
		return fieldsDiffer(c, o.Custom, a.CustomLevel, b.CustomLevel, a.Custom, b.Custom)
	case "sort":
		return fieldsDiffer(c, o.Sort, a.SortLevel, b.SortLevel, a.Sort, b.Sort)
	default:
		return Beat{}, false
	}
	return Beat{Criterion: c, Above: av, Below: bv}, av != bv
}

// fieldsDiffer compares a criterion of fields: its level when moved among the text
// criteria, else the first of fields whose values differ.
func fieldsDiffer(c string, fields []string, al, bl *int, a, b map[string]any) (Beat, bool) {
	if al != nil && bl != nil && *al != *bl {
		return Beat{Criterion: c, Above: *al, Below: *bl}, true
	}
	for _, f := range fields {
		if !reflect.DeepEqual(a[f], b[f]) {
			return Beat{Criterion: c, Field: f, Above: a[f], Below: b[f]}, true
		}
	}
	return Beat{}, false
}

func intOr0(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
