package aggs

import (
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/aislehq/aisle/internal/engine/mapping"
)

// isNumericMetric says whether an aggregation type is a single-value metric of numbers
// (dates and booleans read as numbers, as in ES).
func isNumericMetric(typ string) bool {
	return typ == "min" || typ == "max" || typ == "sum"
}

// metricAgg renders min, max, sum and cardinality. With `missing`, documents without the
// field count as having that value, as in ES; on an unmapped field that is every document.
func (r *Runner) metricAgg(fr *search.FacetResult, base bq.Query, a *Agg) (map[string]any, error) {
	var vals []value
	if a.Leaf != nil {
		vals = values(fr, a)
	}
	if a.Type == "sum" {
		return r.sumAgg(fr, base, a, vals)
	}
	if a.Missing != nil {
		n, err := r.missingCount(fr, base, a)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			mv, err := a.missingValue()
			if err != nil {
				return nil, err
			}
			vals = appendDistinct(vals, mv)
		}
	}
	if a.Type == "cardinality" {
		return map[string]any{"value": len(vals)}, nil
	}
	return minMaxOf(vals, a), nil
}

// missingCount is how many documents in scope lack the field.
func (r *Runner) missingCount(fr *search.FacetResult, base bq.Query, a *Agg) (int, error) {
	if a.Leaf != nil {
		if fr == nil {
			return 0, nil
		}
		return fr.Missing, nil
	}
	res, err := r.Index.SearchInContext(r.Ctx, bleve.NewSearchRequestOptions(base, 0, 0, false))
	if err != nil {
		return 0, err
	}
	return int(res.Total), nil
}

func (a *Agg) missingValue() (value, error) {
	v := value{raw: "\x00missing", str: toStr(a.Missing)}
	if a.Leaf == nil || a.Leaf.Type == "keyword" {
		if a.Type != "cardinality" {
			n, err := mapping.ToNumber(a.Missing, "double")
			if err != nil {
				return v, fmt.Errorf("[missing] value [%v] of [%s] is not a number", a.Missing, a.Name)
			}
			v.num = n
		}
		return v, nil
	}
	n, err := keyNumber(a.Leaf, a.Missing)
	if err != nil {
		return v, err
	}
	v.num = n
	return v, nil
}

func appendDistinct(vals []value, mv value) []value {
	for _, v := range vals {
		if (v.str != "" && v.str == mv.str) || (v.str == "" && v.num == mv.num) {
			return vals
		}
	}
	return append(vals, mv)
}

// sumAgg adds every value of every document in scope: each distinct value times the
// documents holding it, plus `missing` once per document without the field. ES sums an
// empty scope to 0. A document holding the same number twice in one array counts it once
// (the columns keep distinct values per document); ES would count it twice.
func (r *Runner) sumAgg(fr *search.FacetResult, base bq.Query, a *Agg, vals []value) (map[string]any, error) {
	var total float64
	for _, v := range vals {
		total += v.num * float64(v.count)
	}
	if a.Missing != nil {
		n, err := r.missingCount(fr, base, a)
		if err != nil {
			return nil, err
		}
		mv, err := a.missingValue()
		if err != nil {
			return nil, err
		}
		total += mv.num * float64(n)
	}
	return map[string]any{"value": total}, nil
}
