package dsl

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// decayFunction is gauss, exp or linear on a numeric or date field (ES's
// DecayFunctionBuilder): 1 within offset of origin, decay at scale beyond it. A
// document without the field scores 1.
type decayFunction struct {
	leaf                  *mapper.Leaf
	origin, scale, offset float64 // dates in milliseconds
	evaluate              func(distance float64) float64
	mode                  string // multi_value_mode
}

// decayCurves are each decay's processScale and evaluate, as ES computes them.
var decayCurves = map[string]func(scale, decay float64) func(float64) float64{
	"gauss": func(scale, decay float64) func(float64) float64 {
		s := 0.5 * math.Pow(scale, 2) / math.Log(decay)
		return func(v float64) float64 { return math.Exp(0.5 * math.Pow(v, 2) / s) }
	},
	"exp": func(scale, decay float64) func(float64) float64 {
		s := math.Log(decay) / scale
		return func(v float64) float64 { return math.Exp(s * v) }
	},
	"linear": func(scale, decay float64) func(float64) float64 {
		s := scale / (1 - decay)
		return func(v float64) float64 { return math.Max(0, (s-v)/s) }
	},
}

func decayParser(kind string) func(*Context, any) (valueFunction, error) {
	return func(c *Context, body any) (valueFunction, error) {
		m, err := asObject(kind, body)
		if err != nil {
			return nil, err
		}
		d := &decayFunction{mode: "min"}
		field, params, err := d.fieldOf(kind, m)
		if err != nil {
			return nil, err
		}
		if d.leaf = c.Leaf(field); d.leaf == nil {
			return nil, eserr.Parsing("unknown field [%s]", field)
		}
		if !mapper.Numeric(d.leaf.Type) && d.leaf.Type != "date" {
			return nil, eserr.Parsing("field [%s] is of type [%s], but only numeric types are supported.", field, d.leaf.Type)
		}
		return d, d.setParams(kind, params)
	}
}

// fieldOf splits the body into the field's parameters and multi_value_mode.
func (d *decayFunction) fieldOf(kind string, m map[string]any) (string, map[string]any, error) {
	var field string
	var params map[string]any
	for _, k := range sortedKeys(m) {
		if k == "multi_value_mode" {
			d.mode = strings.ToLower(fmt.Sprint(m[k]))
			if d.mode != "min" && d.mode != "max" && d.mode != "avg" && d.mode != "sum" {
				return "", nil, eserr.IllegalArgument("Unknown MultiValueMode [%v]", m[k])
			}
			continue
		}
		p, ok := m[k].(map[string]any)
		if !ok || field != "" {
			return "", nil, eserr.Parsing("[%s] malformed score function score, expected an object for field [%s]", kind, k)
		}
		field, params = k, p
	}
	if field == "" {
		return "", nil, eserr.Parsing("[%s] requires a field", kind)
	}
	return field, params, nil
}

func (d *decayFunction) setParams(kind string, p map[string]any) error {
	if err := checkKeys(kind, p, "origin", "scale", "offset", "decay"); err != nil {
		return err
	}
	if _, ok := p["scale"]; !ok {
		return eserr.Parsing("[%s] requires [scale]", kind)
	}
	decay := 0.5
	if v, ok := p["decay"]; ok {
		var err error
		if decay, err = num(v); err != nil {
			return eserr.Parsing("[%s] decay must be a number", kind)
		}
	}
	if decay <= 0 || decay >= 1 {
		return eserr.IllegalArgument("decay must be in the range (0..1)!")
	}
	read := d.numberParams
	if d.leaf.Type == "date" {
		read = d.dateParams
	}
	if err := read(kind, p); err != nil {
		return err
	}
	if d.scale <= 0 {
		return eserr.IllegalArgument("function_score : scale must be > 0.0.")
	}
	d.evaluate = decayCurves[kind](d.scale, decay)
	return nil
}

func (d *decayFunction) numberParams(kind string, p map[string]any) error {
	if _, ok := p["origin"]; !ok {
		return eserr.Parsing("[%s] both [scale] and [origin] must be set for numeric fields.", kind)
	}
	for _, k := range []struct {
		key string
		dst *float64
	}{{"origin", &d.origin}, {"scale", &d.scale}, {"offset", &d.offset}} {
		if v, ok := p[k.key]; ok {
			n, err := num(v)
			if err != nil {
				return eserr.Parsing("[%s] [%s] must be a number", kind, k.key)
			}
			*k.dst = n
		}
	}
	return nil
}

// dateParams reads a date decay: origin in date math (now by default), scale and offset
// as time values ("10d").
func (d *decayFunction) dateParams(kind string, p map[string]any) error {
	origin := time.Now()
	if v, ok := p["origin"]; ok {
		t, err := DateMath(dateInput(v), d.leaf.Format, false, time.Now())
		if err != nil {
			return eserr.Parsing("[%s] failed to parse origin [%v]: %s", kind, v, err.Error())
		}
		origin = t
	}
	d.origin = float64(origin.UnixMilli())
	var err error
	if d.scale, err = timeValueMillis(p["scale"]); err != nil {
		return err
	}
	if v, ok := p["offset"]; ok {
		d.offset, err = timeValueMillis(v)
	}
	return err
}

// timeValueUnits are ES's TimeValue suffixes, in milliseconds.
var timeValueUnits = []struct {
	suffix string
	millis float64
}{{"nanos", 1e-6}, {"micros", 1e-3}, {"ms", 1}, {"s", 1e3}, {"m", 60e3}, {"h", 3600e3}, {"d", 86400e3}}

func timeValueMillis(v any) (float64, error) {
	s := strings.ToLower(strings.TrimSpace(fmt.Sprint(v)))
	for _, u := range timeValueUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
			if err == nil {
				return f * u.millis, nil
			}
		}
	}
	return 0, eserr.Parsing("failed to parse setting [scale] with value [%s] as a time value: unit is missing or unrecognized", s)
}

func (d *decayFunction) bind(v *columns.View) (func(int, uint64) (float64, error), error) {
	values, err := bindValues(v, d.leaf)
	if err != nil {
		return nil, err
	}
	var distances []float64
	return func(seg int, local uint64) (float64, error) {
		distances = distances[:0]
		for _, x := range values.of(seg, local) {
			distances = append(distances, math.Max(0, math.Abs(x-d.origin)-d.offset))
		}
		return d.evaluate(d.pick(distances)), nil
	}, nil
}

// pick is multi_value_mode over a document's distances; none is distance 0.
func (d *decayFunction) pick(ds []float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	sort.Float64s(ds)
	switch d.mode {
	case "max":
		return ds[len(ds)-1]
	case "sum", "avg":
		var sum float64
		for _, x := range ds {
			sum += x
		}
		if d.mode == "avg" {
			return sum / float64(len(ds))
		}
		return sum
	}
	return ds[0]
}
