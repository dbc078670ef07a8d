package searchquery

import (
	"cmp"
	"math"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
	"github.com/aislehq/aisle/internal/relevance"
)

// The sort and custom criteria are the request's sort keys and the index's custom
// ranking. Where they lead the ranking (sort first, the default) their keys come before
// _score in the search's sort, exactly. Where they come after (custom last, the default)
// their keys follow _score, exactly, for any number of fields. Where one is moved before
// a text criterion, its first field also becomes a band of the score: a level per range
// of values between the field's smallest and largest (FieldStats), so that it decides
// before the later text criteria; its exact values still follow _score. The hits' last
// key is objectID, so that ties keep one order.

// FieldStats are the smallest and largest values of numeric and date fields, by the
// field's name in the mapping: what a quantized band is cut from.
type FieldStats map[string]MinMax

// MinMax bounds a field's values (epoch milliseconds for dates).
type MinMax struct {
	Min, Max float64
}

// sortKey is one key of the hits' order.
type sortKey struct {
	criterion searchv1alpha1.RankingCriterion
	// path is the record field, field its exact field in the mapping.
	path, field, order string
	kind               Kind
}

// hitOrder is the search's sort and its bands.
type hitOrder struct {
	before, after []sortKey
	// bands are the first keys of the criteria moved before a text criterion.
	bands map[searchv1alpha1.RankingCriterion]sortKey
}

func (o hitOrder) quantized() []searchv1alpha1.RankingCriterion {
	var out []searchv1alpha1.RankingCriterion
	for c := range o.bands {
		out = append(out, c)
	}
	return out
}

// orderOf places the sort and custom criteria. text is false for an empty query: no
// text criterion decides anything then, so none is moved.
func orderOf(req Request, r Access, s Schema, text bool) hitOrder {
	o := hitOrder{bands: map[searchv1alpha1.RankingCriterion]sortKey{}}
	ranking := relevance.Ranking(r.Settings)
	leading := true
	for i, c := range ranking {
		keys := keysOf(c, req, r, s)
		switch {
		case !isKeyed(c):
			leading = false
		case c == critCustom && relevance.PopularityFirst(r.Settings):
			// Popularity ranks in the score (popularity.go): the other fields follow it.
			leading = false
			o.after = append(o.after, keys...)
		case leading:
			o.before = append(o.before, keys...)
		default:
			o.after = append(o.after, keys...)
			if text && beforeText(ranking[i+1:]) && len(keys) > 0 && (keys[0].kind == KindNumber || keys[0].kind == KindDate) {
				o.bands[c] = keys[0]
			}
		}
	}
	if !containsCriterion(ranking, critSort) {
		o.after = append(o.after, keysOf(critSort, req, r, s)...)
	}
	return o
}

// isKeyed reports the criteria whose order comes from sort keys.
func isKeyed(c searchv1alpha1.RankingCriterion) bool { return c == critSort || c == critCustom }

// beforeText reports text criteria among later: a keyed criterion before one of them
// must decide in the score.
func beforeText(later []searchv1alpha1.RankingCriterion) bool {
	for _, c := range later {
		if !isKeyed(c) {
			return true
		}
	}
	return false
}

// keysOf are the keys of criterion c: the request's sort or the custom ranking, without
// the fields no record holds yet or holding what has no order (objects, geo points):
// Elasticsearch refuses to sort on them, and sorting on them would change nothing.
func keysOf(c searchv1alpha1.RankingCriterion, req Request, r Access, s Schema) []sortKey {
	def := "asc"
	if c == critCustom {
		def = "desc"
	}
	var out []sortKey
	for _, k := range sortsOf(c, req, r) {
		f, ok := s[k.Field]
		if !ok || !f.HasValues() {
			continue
		}
		out = append(out, sortKey{criterion: c, path: k.Field, field: f.Keyword, order: cmp.Or(k.Order, def), kind: f.Kind})
	}
	return out
}

// sortsOf are the fields criterion c sorts on, before the mapping is consulted: the
// request's sort, or the custom ranking's fields (popularity is not a field of the
// records). An empty order is the criterion's default.
func sortsOf(c searchv1alpha1.RankingCriterion, req Request, r Access) []Sort {
	switch c {
	case critSort:
		return req.Sort
	case critCustom:
		var out []Sort
		for _, rule := range r.Settings.CustomRanking {
			if rule.Field != searchv1alpha1.PopularityField {
				out = append(out, Sort{Field: string(rule.Field), Order: string(rule.Order)})
			}
		}
		return out
	}
	return nil
}

// SortPaths are the fields req sorts on under r, whether the mapping holds them or not.
// keysOf leaves out those the mapping lacks, so a caller holding an older mapping reads
// it again when one is missing.
func SortPaths(req Request, r Access) []string {
	var out []string
	for _, c := range []searchv1alpha1.RankingCriterion{critSort, critCustom} {
		for _, k := range sortsOf(c, req, r) {
			out = append(out, k.Field)
		}
	}
	return out
}

// Lacks reports whether one of paths is not in s.
func (s Schema) Lacks(paths []string) bool {
	for _, p := range paths {
		if _, ok := s[p]; !ok {
			return true
		}
	}
	return false
}

// StatsFields are the fields whose FieldStats a request's ranking needs.
func StatsFields(req Request, r Access, s Schema) []string {
	var out []string
	for _, k := range orderOf(req, r, s, len(splitWords(req.Q)) > 0).bands {
		out = append(out, k.field)
	}
	return out
}

// withStats keeps the bands whose field has a range of values.
func (o hitOrder) withStats(stats FieldStats) hitOrder {
	for c, k := range o.bands {
		if mm, ok := stats[k.field]; !ok || !(mm.Max > mm.Min) {
			delete(o.bands, c)
		}
	}
	return o
}

// sort is the search's sort.
func (o hitOrder) sort() []any {
	keys := make([]any, 0, len(o.before)+len(o.after)+2)
	for _, k := range o.before {
		keys = append(keys, map[string]any{k.field: map[string]any{"order": k.order}})
	}
	keys = append(keys, map[string]any{"_score": map[string]any{"order": "desc"}})
	for _, k := range o.after {
		keys = append(keys, map[string]any{k.field: map[string]any{"order": k.order}})
	}
	return append(keys, map[string]any{indexmapping.ObjectIDField: map[string]any{"order": "asc"}})
}

// directions are the directions of sort's keys, true for desc: what merging two lists
// of hits by their sort values needs (distinctmerge.go).
func (o hitOrder) directions() []bool {
	out := make([]bool, 0, len(o.before)+len(o.after)+2)
	for _, k := range o.before {
		out = append(out, k.order == "desc")
	}
	out = append(out, true)
	for _, k := range o.after {
		out = append(out, k.order == "desc")
	}
	return append(out, false)
}

// bandClauses are the clauses of the quantized bands: for a field ranked desc, a
// record's level is the number of thresholds its value reaches; asc, the number it stays
// below. A record without a value is at level 0.
func (o hitOrder) bandClauses(r radix, stats FieldStats) []any {
	var out []any
	for _, b := range r.bands {
		k, ok := o.bands[b.criterion]
		if !ok {
			continue
		}
		mm := stats[k.field]
		for j := int64(1); j < b.size; j++ {
			t := mm.Min + float64(j)*(mm.Max-mm.Min)/float64(b.size)
			if k.kind == KindDate {
				// Dates are whole milliseconds: v >= t and v < t hold as with ceil(t).
				t = math.Ceil(t)
			}
			bound := map[string]any{"gte": t}
			if k.order == "asc" {
				bound = map[string]any{"lt": t}
			}
			if k.kind == KindDate {
				bound["format"] = "epoch_millis"
			}
			out = append(out, constant(map[string]any{"range": map[string]any{k.field: bound}}, b.base))
		}
	}
	return out
}
