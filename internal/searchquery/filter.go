package searchquery

import (
	"fmt"
	"strings"
)

// filterBuilder validates a filter tree and turns it into Elasticsearch queries.
type filterBuilder struct {
	allowed    list
	schema     Schema
	p          *problems
	conditions int
}

// build returns the query of node f at place, or nil when the node is invalid (the
// problem is recorded).
func (b *filterBuilder) build(f *Filter, place string, depth int) map[string]any {
	if depth > MaxDepth {
		b.p.add(place, "filters nest at most %d levels deep", MaxDepth)
		return nil
	}
	ops := countOps(f)
	switch {
	case ops == 0:
		b.p.add(place, "needs one of eq, in, range, exists (with field), or and, or, not")
		return nil
	case ops > 1:
		b.p.add(place, "takes exactly one of eq, in, range, exists, and, or, not")
		return nil
	case f.And != nil:
		if qs := b.children(f.And, place+".and", depth); qs != nil {
			return map[string]any{"bool": map[string]any{"must": qs}}
		}
		return nil
	case f.Or != nil:
		if qs := b.children(f.Or, place+".or", depth); qs != nil {
			return map[string]any{"bool": map[string]any{"should": qs, "minimum_should_match": 1}}
		}
		return nil
	case f.Not != nil:
		if f.Field != "" {
			b.p.add(place+".field", "not a place for field: put it inside not")
		}
		inner := b.build(f.Not, place+".not", depth+1)
		if inner == nil {
			return nil
		}
		return map[string]any{"bool": map[string]any{"must_not": []any{inner}}}
	}
	return b.leaf(f, place)
}

func countOps(f *Filter) int {
	n := 0
	for _, set := range []bool{f.Eq != nil, f.In != nil, f.Range != nil, f.Exists != nil, f.And != nil, f.Or != nil, f.Not != nil} {
		if set {
			n++
		}
	}
	return n
}

// children are the queries of an and's or an or's filters (nil when one has a problem).
func (b *filterBuilder) children(children []Filter, place string, depth int) []any {
	if len(children) == 0 {
		b.p.add(place, "needs at least one filter")
		return nil
	}
	qs := make([]any, 0, len(children))
	for i := range children {
		if q := b.build(&children[i], fmt.Sprintf("%s[%d]", place, i), depth+1); q != nil {
			qs = append(qs, q)
		}
	}
	if len(qs) != len(children) {
		return nil
	}
	return qs
}

// leaf builds a condition on a field.
func (b *filterBuilder) leaf(f *Filter, place string) map[string]any {
	b.conditions++
	if b.conditions == MaxConditions+1 {
		b.p.add("filters", "at most %d conditions", MaxConditions)
	}
	if f.Field == "" {
		b.p.add(place+".field", "is required with eq, in, range and exists")
		return nil
	}
	if !b.allowed.has(f.Field) {
		b.p.add(place+".field", "%s", notAllowed(f.Field, b.allowed))
		return nil
	}
	switch {
	case f.Eq != nil:
		return b.terms(f.Field, []any{f.Eq}, place+".eq")
	case f.In != nil:
		if len(f.In) == 0 || len(f.In) > MaxInValues {
			b.p.add(place+".in", "needs 1 to %d values", MaxInValues)
			return nil
		}
		return b.terms(f.Field, f.In, place+".in")
	case f.Range != nil:
		return b.rangeQuery(f.Field, f.Range, place+".range")
	}
	q := map[string]any{"exists": map[string]any{"field": f.Field}}
	if !*f.Exists {
		return map[string]any{"bool": map[string]any{"must_not": []any{q}}}
	}
	return q
}

func (b *filterBuilder) terms(path string, values []any, place string) map[string]any {
	for i, v := range values {
		if !checkScalar(v) {
			b.p.add(valuePlace(place, len(values), i), "must be a string, number or boolean")
			return nil
		}
	}
	if f, known := b.schema[path]; known {
		for i, v := range values {
			if msg := fitValue(f, v); msg != "" {
				b.p.add(valuePlace(place, len(values), i), "%s", msg)
				return nil
			}
		}
	}
	field := b.schema.exactField(path, values[0])
	if len(values) == 1 {
		return map[string]any{"term": map[string]any{field: values[0]}}
	}
	return map[string]any{"terms": map[string]any{field: values}}
}

// valuePlace names the i-th of n values at place: eq has one, in has a list.
func valuePlace(place string, n, i int) string {
	if n == 1 && strings.HasSuffix(place, ".eq") {
		return place
	}
	return fmt.Sprintf("%s[%d]", place, i)
}

func (b *filterBuilder) rangeQuery(path string, r *Range, place string) map[string]any {
	bounds := map[string]any{}
	f := b.schema[path]
	f.Path = path
	for _, bd := range []struct {
		name string
		v    any
	}{{"gt", r.GT}, {"gte", r.GTE}, {"lt", r.LT}, {"lte", r.LTE}} {
		if bd.v == nil {
			continue
		}
		if msg := checkBound(bd.v, f); msg != "" {
			b.p.add(place+"."+bd.name, "%s", msg)
			return nil
		}
		bounds[bd.name] = bd.v
	}
	switch {
	case len(bounds) == 0:
		b.p.add(place, "needs at least one of gt, gte, lt, lte")
		return nil
	case r.GT != nil && r.GTE != nil, r.LT != nil && r.LTE != nil:
		b.p.add(place, "takes at most one lower bound (gt or gte) and one upper bound (lt or lte)")
		return nil
	}
	return map[string]any{"range": map[string]any{path: bounds}}
}
