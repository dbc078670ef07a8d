package searchquery

import (
	"fmt"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
)

// A public search policy's forced filters hold strings (the CRD's type); they are
// checked when the policy is saved as strictly as a request's filters, and applied at
// search time by the field's kind. A field's kind can change after the policy is saved
// (a rebuild, or the first record holding it): a value that no longer fits matches no
// record, so a forced filter never widens what browsers see and never fails a search.

// matchNone is a query no record matches.
var matchNone = map[string]any{"match_none": map[string]any{}}

// CheckPolicy validates the forced filters of p against the index's schema: ErrInvalid
// names each value a search could not apply, at forcedFilters[i].values[j] or
// forcedFilters[i].range.<bound>.
func CheckPolicy(p searchv1alpha1.PublicSearchPolicy, s Schema) error {
	var probs problems
	for i, c := range p.ForcedFilters {
		place := fmt.Sprintf("forcedFilters[%d]", i)
		f := fieldFor(s, string(c.Field))
		for j, v := range c.Values {
			if _, ok := forcedValue(f, v); !ok {
				probs.add(fmt.Sprintf("%s.values[%d]", place, j), "%s", valueProblem(f, v))
			}
		}
		if c.Range != nil {
			for _, b := range boundsOf(c.Range) {
				if _, ok := forcedBound(f, *b.v); !ok {
					probs.add(place+".range."+b.name, "%s", boundProblem(f, *b.v))
				}
			}
		}
	}
	return probs.err()
}

// fieldFor is path's field in s, or an unknown field named path.
func fieldFor(s Schema, path string) Field {
	f, ok := s[path]
	if !ok {
		return Field{Path: path, Kind: KindUnknown}
	}
	return f
}

type namedBound struct {
	name string
	v    *string
}

func boundsOf(r *searchv1alpha1.RangeBounds) []namedBound {
	var out []namedBound
	for _, b := range []namedBound{{"gt", r.GT}, {"gte", r.GTE}, {"lt", r.LT}, {"lte", r.LTE}} {
		if b.v != nil {
			out = append(out, b)
		}
	}
	return out
}

// forcedValue is the value a forced "values" entry is compared with: the string for
// strings and unknown fields, else the number, boolean or date it must spell.
func forcedValue(f Field, v string) (any, bool) {
	switch f.Kind {
	case KindNumber:
		return numberOf(f, v)
	case KindBool:
		return boolOf(v)
	case KindDate:
		if x, ok := finiteNumber(v); ok && dateOf(x) {
			return x, true
		}
		return v, isDate(v)
	case KindOther:
		return nil, false
	}
	return v, true
}

// forcedBound is the value of a range bound: a finite number or a date, as the field's
// kind allows (both for a field no record holds yet).
func forcedBound(f Field, v string) (any, bool) {
	if x, ok := finiteNumber(v); ok {
		if f.Kind == KindNumber {
			return numberOf(f, x)
		}
		return x, f.Kind == KindUnknown || (f.Kind == KindDate && dateOf(x))
	}
	return v, isDate(v) && (f.Kind == KindUnknown || f.Kind == KindDate || f.Kind == KindString)
}

func valueProblem(f Field, v string) string {
	if msg := fitValue(f, v); msg != "" {
		return msg
	}
	return fmt.Sprintf("%q does not fit field %q", v, f.Path)
}

func boundProblem(f Field, v string) string {
	if f.Kind == KindNumber {
		return fmt.Sprintf("%q must be a finite number field %q can hold", v, f.Path)
	}
	return fmt.Sprintf("%q must be a finite number or a date (RFC 3339 or yyyy-mm-dd)", v)
}

// forced turns the policy's forced filters into queries for the schema at hand.
func forced(conds []searchv1alpha1.FilterCondition, s Schema) []any {
	out := make([]any, 0, len(conds))
	for _, c := range conds {
		f := fieldFor(s, string(c.Field))
		if c.Range != nil {
			out = append(out, forcedRange(f, c.Range))
			continue
		}
		out = append(out, forcedTerms(f, c.Values, s))
	}
	return out
}

func forcedRange(f Field, r *searchv1alpha1.RangeBounds) any {
	bounds := map[string]any{}
	for _, b := range boundsOf(r) {
		v, ok := forcedBound(f, *b.v)
		if !ok {
			return matchNone
		}
		bounds[b.name] = v
	}
	return map[string]any{"range": map[string]any{f.Path: bounds}}
}

func forcedTerms(f Field, raw []string, s Schema) any {
	values := make([]any, 0, len(raw))
	for _, v := range raw {
		if x, ok := forcedValue(f, v); ok {
			values = append(values, x)
		}
	}
	if len(values) == 0 {
		return matchNone
	}
	return map[string]any{"terms": map[string]any{s.exactField(f.Path, ""): values}}
}
