package aggs

import (
	"math"
	"sort"
	"strconv"

	"github.com/blevesearch/bleve/v2/numeric"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
)

var rangeParams = []string{"field", "ranges", "keyed", "missing", "format"}

// numRange is one range of a range aggregation: [from, to), on numbers or dates (epoch
// milliseconds); an absent end is open.
type numRange struct {
	key            string // given, or made from the ends
	from, to       float64
	hasFrom, hasTo bool
}

func parseRanges(a *Agg, body map[string]any) error {
	list, ok := body["ranges"].([]any)
	if !ok || len(list) == 0 {
		return eserr.IllegalArgument("No [ranges] specified for the [%s] aggregation", a.Name)
	}
	x := a.extra()
	x.Keyed, _ = body["keyed"].(bool)
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return eserr.Parsing("[ranges] must hold objects in [%s]", a.Name)
		}
		rg, err := a.parseRange(m)
		if err != nil {
			return err
		}
		x.Ranges = append(x.Ranges, rg)
	}
	// ES orders the buckets by from, then to.
	sort.SliceStable(x.Ranges, func(i, j int) bool {
		ri, rj := x.Ranges[i], x.Ranges[j]
		if ri.low() != rj.low() {
			return ri.low() < rj.low()
		}
		return ri.high() < rj.high()
	})
	return nil
}

func (a *Agg) parseRange(m map[string]any) (numRange, error) {
	var rg numRange
	for k, v := range m {
		var err error
		switch k {
		case "key":
			rg.key, _ = v.(string)
		case "from":
			rg.from, rg.hasFrom, err = a.rangeEnd(v)
		case "to":
			rg.to, rg.hasTo, err = a.rangeEnd(v)
		default:
			return rg, eserr.Parsing("[range] unknown field [%s]", k).With("line", 1).With("col", 1)
		}
		if err != nil {
			return rg, eserr.New(400, "parse_exception", "failed to parse range end [%v] of [%s]: %s", v, a.Name, err.Error())
		}
	}
	return rg, nil
}

// rangeEnd reads an end: null is open; dates are read with the field's format.
func (a *Agg) rangeEnd(v any) (float64, bool, error) {
	if v == nil {
		return 0, false, nil
	}
	if a.Leaf != nil && a.Leaf.Type == "date" {
		n, err := keyNumber(a.Leaf, v)
		return n, err == nil, err
	}
	n, err := toNumber(v)
	return n, err == nil, err
}

func (rg numRange) low() float64 {
	if rg.hasFrom {
		return rg.from
	}
	return math.Inf(-1)
}

func (rg numRange) high() float64 {
	if rg.hasTo {
		return rg.to
	}
	return math.Inf(1)
}

func (rg numRange) holds(x float64) bool { return x >= rg.low() && x < rg.high() }

// rangeAgg counts each document once in each range one of its values falls in. A range
// is, in each segment, a run of ordinals (terms are in value order), found once; a
// document is checked with a lookup per range. Bucket b of owner o is o*n+b.
type rangeAgg struct {
	a      *Agg
	cols   []*columns.Column
	runs   [][][2]uint32 // per segment, per range: the ordinals in range, nil until needed
	counts []int64
	subs   []aggregator
}

func newRange(sh *shard, a *Agg, subs []aggregator) (aggregator, error) {
	cols, err := sh.columns(a)
	if err != nil {
		return nil, err
	}
	return &rangeAgg{a: a, cols: cols, runs: make([][][2]uint32, len(cols)), subs: subs}, nil
}

func (r *rangeAgg) collect(d doc, owner int) error {
	n := len(r.a.X.Ranges)
	var one [1]uint32
	var ords []uint32
	if r.cols != nil {
		ords = r.cols[d.seg].Ords(d.local, &one)
	}
	if len(ords) == 0 {
		return r.collectMissing(d, owner)
	}
	runs := r.segRuns(d.seg)
	for i, run := range runs {
		if r.cols[d.seg].AnyIn(d.local, run[0], run[1]) {
			if err := r.into(owner*n+i, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// collectMissing counts a document without a value in the ranges of `missing`, if any.
func (r *rangeAgg) collectMissing(d doc, owner int) error {
	if r.a.Missing == nil {
		return nil
	}
	mv, err := toNumber(r.a.Missing)
	if err != nil {
		return eserr.IllegalArgument("[missing] value [%v] of [%s] is not a number", r.a.Missing, r.a.Name)
	}
	for i, rg := range r.a.X.Ranges {
		if rg.holds(mv) {
			if err := r.into(owner*len(r.a.X.Ranges)+i, d); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *rangeAgg) into(b int, d doc) error {
	r.counts = grow(r.counts, b)
	r.counts[b]++
	return collectAll(r.subs, d, b)
}

// segRuns finds the ordinals of each range in a segment: the column's values ascend.
func (r *rangeAgg) segRuns(seg int) [][2]uint32 {
	if r.runs[seg] != nil {
		return r.runs[seg]
	}
	col := r.cols[seg]
	ints := col.Int64s()
	value := func(o int) float64 {
		if r.a.Leaf.Type == "date" {
			return float64(dateMillis(ints[o]))
		}
		return numeric.Int64ToFloat64(ints[o])
	}
	runs := make([][2]uint32, len(r.a.X.Ranges))
	for i, rg := range r.a.X.Ranges {
		lo := sort.Search(len(ints), func(o int) bool { return value(o) >= rg.low() })
		hi := sort.Search(len(ints), func(o int) bool { return value(o) >= rg.high() })
		runs[i] = [2]uint32{uint32(lo), uint32(hi)}
	}
	r.runs[seg] = runs
	return runs
}

func (r *rangeAgg) result(owner int) *partial {
	p := newPartial()
	n := len(r.a.X.Ranges)
	for i := range n {
		b := owner*n + i
		pb := p.bucket(strconv.Itoa(i), value{})
		if b < len(r.counts) {
			pb.count = r.counts[b]
		}
		pb.subs = resultsOf(r.subs, b)
	}
	return p
}

func (r *rangeAgg) close() error { return closeAll(r.subs) }

func (r renderer) ranges(a *Agg, p *partial) (map[string]any, error) {
	keyed := a.X.Keyed
	list := make([]any, 0, len(a.X.Ranges))
	byKey := map[string]any{}
	for i, rg := range a.X.Ranges {
		b, err := r.counted(a, p.buckets[strconv.Itoa(i)])
		if err != nil {
			return nil, err
		}
		key := a.rangeBucket(rg, b)
		if keyed {
			byKey[key] = b
		} else {
			b["key"] = key
			list = append(list, b)
		}
	}
	if keyed {
		return map[string]any{"buckets": byKey}, nil
	}
	return map[string]any{"buckets": list}, nil
}

// rangeBucket sets the bucket's ends and returns its key: the given one, or "from-to"
// with "*" for an open end, as ES formats the ends (dates in the field's format).
func (a *Agg) rangeBucket(rg numRange, b map[string]any) string {
	from, to := "*", "*"
	if rg.hasFrom {
		b["from"], from = rg.from, a.formatEnd(rg.from)
		a.endString(b, "from_as_string", from)
	}
	if rg.hasTo {
		b["to"], to = rg.to, a.formatEnd(rg.to)
		a.endString(b, "to_as_string", to)
	}
	if rg.key != "" {
		return rg.key
	}
	return from + "-" + to
}

func (a *Agg) endString(b map[string]any, name, s string) {
	if a.Format != "" || (a.Leaf != nil && a.Leaf.Type == "date") {
		b[name] = s
	}
}

func (a *Agg) formatEnd(x float64) string {
	switch {
	case a.Leaf != nil && a.Leaf.Type == "date":
		return formatKey(a, int64(x))
	case a.Format != "":
		return decimalFormat(a.Format, x)
	}
	return javaDouble(x)
}

// toNumber reads a JSON number or numeric string.
func toNumber(v any) (float64, error) {
	return strconv.ParseFloat(toStr(v), 64)
}
