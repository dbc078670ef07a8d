package aggs

import (
	"fmt"
	"time"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// isNumericMetric says whether an aggregation type is a single-value metric of numbers
// (dates and booleans read as numbers, as in ES).
func isNumericMetric(typ string) bool {
	return typ == "min" || typ == "max" || typ == "sum"
}

// metricAgg collects min, max, sum and cardinality per owner. A document's values are
// its distinct terms (the columns keep distinct values per document), so a document
// whose array holds one number twice adds it once to a sum, where ES adds it twice.
type metricAgg struct {
	a     *Agg
	cols  []*columns.Column // nil on an unmapped field: every document lacks it
	parts []*partial        // per owner
	// seen is cardinality's distinct terms per owner, by segment and ordinal.
	seen []map[[2]int64]struct{}
	one  [1]uint32
	// nums is each segment's column values of a numeric field, once read.
	nums [][]float64
}

func (sh *shard) newMetric(a *Agg) (aggregator, error) {
	cols, err := sh.columns(a)
	if err != nil {
		return nil, err
	}
	return &metricAgg{a: a, cols: cols}, nil
}

func (m *metricAgg) collect(d doc, owner int) error {
	m.parts = grow(m.parts, owner)
	p := m.parts[owner]
	if p == nil {
		p = newPartial()
		m.parts[owner] = p
	}
	var ords []uint32
	if m.cols != nil {
		ords = m.cols[d.seg].Ords(d.local, &m.one)
	}
	if len(ords) == 0 {
		p.missing++
		return nil
	}
	switch m.a.Type {
	case "cardinality":
		m.distinct(owner, d.seg, ords)
		return nil
	case "value_count":
		p.count += int64(len(ords))
		return nil
	}
	if vals := m.numbers(d.seg); vals != nil {
		for _, o := range ords {
			p.observe(vals[o])
		}
		return nil
	}
	col := m.cols[d.seg]
	for _, o := range ords {
		p.observe(m.number(col, o))
	}
	return nil
}

// numbers is the value of each term of a numeric field's column in segment seg; nil
// for dates and booleans, which number reads term by term.
func (m *metricAgg) numbers(seg int) []float64 {
	if m.nums == nil {
		if !mapper.Numeric(m.a.Leaf.Type) {
			return nil
		}
		m.nums = make([][]float64, len(m.cols))
	}
	if m.nums[seg] == nil {
		m.nums[seg] = m.cols[seg].Float64s()
	}
	return m.nums[seg]
}

func (m *metricAgg) distinct(owner, seg int, ords []uint32) {
	m.seen = grow(m.seen, owner)
	if m.seen[owner] == nil {
		m.seen[owner] = map[[2]int64]struct{}{}
	}
	for _, o := range ords {
		m.seen[owner][[2]int64{int64(seg), int64(o)}] = struct{}{}
	}
}

// number is the numeric value of a term: dates as epoch milliseconds, booleans as 1/0.
func (m *metricAgg) number(col *columns.Column, ord uint32) float64 {
	switch m.a.Leaf.Type {
	case "boolean":
		if string(col.Terms[ord]) == "T" {
			return 1
		}
		return 0
	case "date":
		return float64(dateMillis(col.Int64s()[ord]))
	}
	return col.Float64s()[ord]
}

func (m *metricAgg) result(owner int) *partial {
	p := newPartial()
	if owner < len(m.parts) && m.parts[owner] != nil {
		p.merge(m.parts[owner])
	}
	if owner < len(m.seen) && m.seen[owner] != nil {
		p.distinct = make(map[string]struct{}, len(m.seen[owner]))
		for k := range m.seen[owner] {
			if v, ok := decodeTerm(m.a, m.cols[k[0]].Terms[k[1]]); ok {
				p.distinct[m.a.keyOf(v)] = struct{}{}
			}
		}
	}
	return p
}

func (m *metricAgg) close() error { return nil }

// renderMetric renders min, max, sum and cardinality. With `missing`, documents without
// the field count as having that value, as in ES; on an unmapped field that is every
// document. ES sums an empty scope to 0.
func renderMetric(p *partial, a *Agg) (map[string]any, error) {
	var mv *value
	if a.Missing != nil && p.missing > 0 {
		v, err := a.missingValue()
		if err != nil {
			return nil, err
		}
		mv = &v
	}
	switch a.Type {
	case "sum":
		total := p.sum
		if mv != nil {
			total += mv.num * float64(p.missing)
		}
		return map[string]any{"value": total}, nil
	case "cardinality":
		n := len(p.distinct)
		if mv != nil {
			if _, seen := p.distinct[a.keyOf(*mv)]; !seen {
				n++
			}
		}
		return map[string]any{"value": n}, nil
	}
	return minMaxOf(p, a, mv), nil
}

func minMaxOf(p *partial, a *Agg, mv *value) map[string]any {
	best, has := p.max, p.has
	if a.Type == "min" {
		best = p.min
	}
	if mv != nil {
		if !has || (a.Type == "min" && mv.num < best) || (a.Type == "max" && mv.num > best) {
			best = mv.num
		}
		has = true
	}
	if !has {
		return map[string]any{"value": nil}
	}
	out := map[string]any{"value": best}
	if a.Leaf != nil && a.Leaf.Type == "date" {
		out["value_as_string"] = mapper.FormatDate(time.UnixMilli(int64(best)))
	}
	return out
}

func (a *Agg) missingValue() (value, error) {
	v := value{str: toStr(a.Missing)}
	if a.Leaf == nil || a.Leaf.Type == "keyword" {
		if a.Type != "cardinality" {
			n, err := mapper.ToNumber(a.Missing, "double")
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

// dateMillis turns a date column value (epoch nanoseconds) into epoch milliseconds.
func dateMillis(ns int64) int64 { return ns / int64(time.Millisecond) }
