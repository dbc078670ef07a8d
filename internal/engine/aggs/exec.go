package aggs

import (
	"cmp"
	"context"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/numeric"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapping"
)

// allTerms asks a facet for every term: bucket selection and ordering are done here with
// ES's rules, so counts and sum_other_doc_count are exact.
const allTerms = math.MaxInt32

// shiftZero selects full-precision terms of numeric and date fields: bleve indexes each
// number at several precisions, and only shift 0 holds the exact value.
var shiftZero = string([]byte{numeric.ShiftStartInt64})

// Runner executes aggregations against one searchable bleve index.
type Runner struct {
	Index     bleve.Index
	Ctx       context.Context
	TypedKeys bool
	IndexName string
	// Columnar is set when Index is a single index, whose aggregations are counted from
	// columns (see Attach).
	Columnar bool
}

func needsFacet(a *Agg) bool { return a.Type != "filter" && a.Leaf != nil }

// Validate rejects aggregations ES refuses for the field type.
func Validate(aggs []*Agg, index string) error {
	for _, a := range aggs {
		if a.Leaf != nil {
			t := a.Leaf.Type
			switch {
			case t == "text":
				return eserr.SearchPhase(eserr.IllegalArgument("Fielddata is disabled on [%s] in [%s]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [%s] in order to load field data by uninverting the inverted index. Note that this can use significant memory.", a.Field, index, a.Field).With("index", index))
			case mapping.Unqueryable(t) && a.Type != "filter":
				return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [%s]", a.Field, t, a.Type).With("index", index))
			case isNumericMetric(a.Type) && !mapping.Numeric(t) && t != "date" && t != "boolean":
				return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [%s]", a.Field, t, a.Type).With("index", index))
			case a.Type == "date_histogram" && t != "date":
				return eserr.SearchPhase(eserr.IllegalArgument("Field [%s] of type [%s] is not supported for aggregation [date_histogram]", a.Field, t).With("index", index))
			case !a.Leaf.DocValues:
				return eserr.SearchPhase(eserr.IllegalArgument("Can't load fielddata on [%s] because fielddata is unsupported on fields of type [%s]. Use doc values instead.", a.Field, t).With("index", index))
			}
		}
		if err := a.checkRegexField(index); err != nil {
			return err
		}
		if err := Validate(a.Subs, index); err != nil {
			return err
		}
	}
	return nil
}

// Level is what one level of aggregations attached to a search request: column
// collectors or bleve facets.
type Level struct {
	c *collector
}

// Attach prepares a search request for one level of aggregations. On a single index
// (columnar) the request's query is wrapped so that matching documents are counted from
// columns as they are found; across several indices bleve facets are added instead.
func Attach(req *bleve.SearchRequest, aggs []*Agg, columnar bool) *Level {
	lvl := &Level{}
	if columnar {
		lvl.c = &collector{}
	}
	for _, a := range aggs {
		if !needsFacet(a) {
			continue
		}
		prefix := ""
		if a.Leaf.Type != "keyword" && a.Leaf.Type != "boolean" {
			prefix = shiftZero
		}
		if lvl.c != nil {
			lvl.c.aggs = append(lvl.c.aggs, &colAgg{name: a.Name, field: a.Field, prefix: prefix})
			continue
		}
		fr := bleve.NewFacetRequest(a.Field, allTerms)
		fr.TermPrefix = prefix
		req.AddFacet(a.Name, fr)
	}
	if lvl.c != nil && len(lvl.c.aggs) > 0 {
		req.Query = &collectQuery{Query: req.Query, c: lvl.c}
	}
	return lvl
}

// Facets returns the per-aggregation term counts of a search prepared by Attach.
func (l *Level) Facets(res *bleve.SearchResult) search.FacetResults {
	if l.c == nil || len(l.c.aggs) == 0 {
		return res.Facets
	}
	return l.c.results()
}

// Render builds the "aggregations" object from a search that had Attach'ed facets; base
// is that search's query, used to scope sub-aggregations of buckets.
func (r *Runner) Render(facets search.FacetResults, base bq.Query, aggs []*Agg) (map[string]any, error) {
	out := map[string]any{}
	for _, a := range aggs {
		var val map[string]any
		var err error
		switch a.Type {
		case "filter":
			val, err = r.filterAgg(base, a)
		case "terms":
			val, err = r.termsAgg(facets[a.Name], base, a)
		case "date_histogram":
			val, err = r.histogramAgg(facets[a.Name], base, a)
		case "cardinality", "min", "max", "sum":
			val, err = r.metricAgg(facets[a.Name], base, a)
		}
		if err != nil {
			return nil, err
		}
		if a.Meta != nil {
			val["meta"] = a.Meta
		}
		out[r.key(a)] = val
	}
	return out, nil
}

func (r *Runner) key(a *Agg) string {
	if !r.TypedKeys {
		return a.Name
	}
	prefix := a.Type
	if a.Type == "terms" {
		switch {
		case a.Leaf == nil:
			prefix = "umterms"
		case a.Leaf.Type == "keyword":
			prefix = "sterms"
		case mapping.Numeric(a.Leaf.Type) && !mapping.Integral(a.Leaf.Type):
			prefix = "dterms"
		default:
			prefix = "lterms"
		}
	}
	return prefix + "#" + a.Name
}

// level runs a size-0 search scoped by q and renders aggs over it.
func (r *Runner) level(q bq.Query, aggs []*Agg) (map[string]any, uint64, error) {
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	lvl := Attach(req, aggs, r.Columnar)
	res, err := r.Index.SearchInContext(r.Ctx, req)
	if err != nil {
		return nil, 0, err
	}
	out, err := r.Render(lvl.Facets(res), q, aggs)
	return out, res.Total, err
}

func (r *Runner) filterAgg(base bq.Query, a *Agg) (map[string]any, error) {
	q := bleve.NewConjunctionQuery(base, a.Filter)
	subs, total, err := r.level(q, a.Subs)
	if err != nil {
		return nil, err
	}
	subs["doc_count"] = total
	return subs, nil
}

// value is one distinct field value with its document count.
type value struct {
	raw   string
	num   float64 // numbers; dates as epoch millis; booleans 1/0
	str   string
	count int
}

// values decodes a facet's terms into typed values.
func values(fr *search.FacetResult, a *Agg) []value {
	if fr == nil || fr.Terms == nil {
		return nil
	}
	terms := fr.Terms.Terms()
	out := make([]value, 0, len(terms))
	for _, t := range terms {
		v := value{raw: t.Term, count: t.Count}
		switch {
		case a.Leaf.Type == "keyword":
			v.str = t.Term
		case a.Leaf.Type == "boolean":
			if t.Term == "T" {
				v.num, v.str = 1, "true"
			} else {
				v.num, v.str = 0, "false"
			}
		case a.Leaf.Type == "date":
			i, err := numeric.PrefixCoded(t.Term).Int64()
			if err != nil {
				continue
			}
			v.num = float64(i / int64(time.Millisecond))
			v.str = mapping.FormatDate(time.Unix(0, i))
		default:
			i, err := numeric.PrefixCoded(t.Term).Int64()
			if err != nil {
				continue
			}
			v.num = numeric.Int64ToFloat64(i)
		}
		out = append(out, v)
	}
	return out
}

func minMaxOf(vals []value, a *Agg) map[string]any {
	if len(vals) == 0 {
		return map[string]any{"value": nil}
	}
	best := vals[0].num
	for _, v := range vals[1:] {
		if (a.Type == "min" && v.num < best) || (a.Type == "max" && v.num > best) {
			best = v.num
		}
	}
	out := map[string]any{"value": best}
	if a.Leaf != nil && a.Leaf.Type == "date" {
		out["value_as_string"] = mapping.FormatDate(time.UnixMilli(int64(best)))
	}
	return out
}

func (r *Runner) termsAgg(fr *search.FacetResult, base bq.Query, a *Agg) (map[string]any, error) {
	out := map[string]any{"doc_count_error_upper_bound": 0, "sum_other_doc_count": 0, "buckets": []any{}}
	if a.Leaf == nil {
		return out, nil
	}
	vals := values(fr, a)
	if a.Missing != nil && fr != nil && fr.Missing > 0 {
		vals = append(vals, value{raw: "\x00missing", str: toStr(a.Missing), num: toNum(a.Missing), count: fr.Missing})
	}
	keep := vals[:0]
	for _, v := range vals {
		if v.count >= a.MinDocCount && a.accepts(v) {
			keep = append(keep, v)
		}
	}
	vals = keep
	if a.hasSubOrder() {
		buckets, other, err := r.sortBySubAggs(base, a, vals)
		if err != nil {
			return nil, err
		}
		out["sum_other_doc_count"] = other
		out["buckets"] = buckets
		return out, nil
	}
	sort.SliceStable(vals, func(i, j int) bool { return less(a, vals[i], vals[j]) })
	other := 0
	if len(vals) > a.Size {
		for _, v := range vals[a.Size:] {
			other += v.count
		}
		vals = vals[:a.Size]
	}
	buckets := make([]any, 0, len(vals))
	for _, v := range vals {
		b, err := r.termBucket(base, a, v)
		if err != nil {
			return nil, err
		}
		buckets = append(buckets, b)
	}
	out["sum_other_doc_count"] = other
	out["buckets"] = buckets
	return out, nil
}

func toStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := jsonMarshal(v)
	return string(b)
}

func toNum(v any) float64 {
	f, _ := strconv.ParseFloat(toStr(v), 64)
	return f
}

func less(a *Agg, x, y value) bool {
	for _, o := range a.Order {
		c := compareBy(a, o.Key, x, y)
		if o.Desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
}

// compareBy compares two values by _count or _key.
func compareBy(a *Agg, key string, x, y value) int {
	switch {
	case key == "_count":
		return cmp.Compare(x.count, y.count)
	case a.Leaf.Type == "keyword":
		return cmp.Compare(x.str, y.str)
	}
	return cmp.Compare(x.num, y.num)
}
