package dsl

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2/numeric"

	"github.com/aislehq/aisle/internal/engine/columns"
	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/mapper"
)

// functionParsers read function_score's functions by name.
var functionParsers map[string]func(c *Context, body any) (valueFunction, error)

func init() {
	functionParsers = map[string]func(c *Context, body any) (valueFunction, error){
		"field_value_factor": parseFieldValueFactor,
		"gauss":              decayParser("gauss"),
		"exp":                decayParser("exp"),
		"linear":             decayParser("linear"),
		"random_score":       parseRandomScore,
		"script_score": func(*Context, any) (valueFunction, error) {
			return nil, eserr.IllegalArgument("[script_score] is not supported by this engine (no scripts)")
		},
	}
}

// fieldValues reads a numeric, date or boolean field's values from columns: numbers as
// they are, dates in epoch milliseconds, booleans 1 or 0, each document's in ascending
// order.
type fieldValues struct {
	cols []*columns.Column
	leaf *mapper.Leaf
	one  [1]uint32
	buf  []float64
}

func (c *Context) numericLeaf(fn, field string) (*mapper.Leaf, error) {
	leaf := c.Leaf(field)
	if leaf == nil {
		return nil, nil
	}
	if !mapper.Numeric(leaf.Type) && leaf.Type != "date" && leaf.Type != "boolean" {
		return nil, c.shardErr("field [%s] of type [%s] is not supported for [%s]", field, leaf.Type, fn)
	}
	return leaf, nil
}

// bindValues reads leaf's values in v; nil for a field not mapped.
func bindValues(v *columns.View, leaf *mapper.Leaf) (*fieldValues, error) {
	if leaf == nil {
		return nil, nil
	}
	prefix := columns.FullPrecision
	if leaf.Type == "boolean" {
		prefix = ""
	}
	cols, err := v.Field(leaf.Path, prefix)
	if err != nil {
		return nil, err
	}
	return &fieldValues{cols: cols, leaf: leaf}, nil
}

// of returns the document's values (valid until the next call).
func (f *fieldValues) of(seg int, local uint64) []float64 {
	col := f.cols[seg]
	f.buf = f.buf[:0]
	for _, o := range col.Ords(local, &f.one) {
		f.buf = append(f.buf, f.decode(col, o))
	}
	return f.buf
}

func (f *fieldValues) decode(col *columns.Column, ord uint32) float64 {
	switch f.leaf.Type {
	case "boolean":
		if string(col.Terms[ord]) == "T" {
			return 1
		}
		return 0
	case "date":
		return float64(col.Int64s()[ord] / int64(time.Millisecond))
	}
	return numeric.Int64ToFloat64(col.Int64s()[ord])
}

// fieldValueFactor is field_value_factor: the field's (first) value times factor, through
// the modifier.
type fieldValueFactor struct {
	field    string
	leaf     *mapper.Leaf
	factor   float32
	modifier string
	missing  *float64
}

var modifiers = map[string]func(float64) float64{
	"none":       func(v float64) float64 { return v },
	"log":        math.Log10,
	"log1p":      func(v float64) float64 { return math.Log10(v + 1) },
	"log2p":      func(v float64) float64 { return math.Log10(v + 2) },
	"ln":         math.Log,
	"ln1p":       math.Log1p,
	"ln2p":       func(v float64) float64 { return math.Log1p(v + 1) },
	"square":     func(v float64) float64 { return math.Pow(v, 2) },
	"sqrt":       math.Sqrt,
	"reciprocal": func(v float64) float64 { return 1 / v },
}

func parseFieldValueFactor(c *Context, body any) (valueFunction, error) {
	m, err := asObject("field_value_factor", body)
	if err != nil {
		return nil, err
	}
	f := &fieldValueFactor{factor: 1, modifier: "none"}
	for _, k := range sortedKeys(m) {
		if err := f.set(k, m[k]); err != nil {
			return nil, err
		}
	}
	if f.field == "" {
		return nil, eserr.Parsing("[field_value_factor] required field 'field' missing")
	}
	if f.leaf, err = c.numericLeaf("field_value_factor", f.field); err != nil {
		return nil, err
	}
	if f.leaf == nil && f.missing == nil {
		return nil, eserr.IllegalArgument("Unable to find a field mapper for field [%s]. No 'missing' value defined.", f.field)
	}
	return f, nil
}

func (f *fieldValueFactor) set(k string, v any) error {
	switch k {
	case "field":
		f.field = fmt.Sprint(v)
	case "factor":
		n, err := num(v)
		f.factor = float32(n)
		return err
	case "modifier":
		s := fmt.Sprint(v)
		if modifiers[s] == nil {
			return eserr.IllegalArgument("Illegal modifier: %s", s)
		}
		f.modifier = s
	case "missing":
		n, err := num(v)
		f.missing = &n
		return err
	default:
		return eserr.Parsing("field_value_factor query does not support [%s]", k)
	}
	return nil
}

func (f *fieldValueFactor) bind(v *columns.View) (func(int, uint64) (float64, error), error) {
	values, err := bindValues(v, f.leaf)
	if err != nil {
		return nil, err
	}
	mod := modifiers[f.modifier]
	return func(seg int, local uint64) (float64, error) {
		var value float64
		switch vs := valuesOf(values, seg, local); {
		case len(vs) > 0:
			value = vs[0]
		case f.missing != nil:
			value = *f.missing
		default:
			return 0, eserr.IllegalArgument("Missing value for field [%s]", f.field)
		}
		result := mod(value * float64(f.factor))
		if result < 0 || math.IsNaN(result) {
			return 0, eserr.IllegalArgument("field value function must not produce negative scores, but got: [%v] for field value: [%v]", result, value)
		}
		return result, nil
	}, nil
}

func valuesOf(f *fieldValues, seg int, local uint64) []float64 {
	if f == nil {
		return nil
	}
	return f.of(seg, local)
}

// randomScore is random_score: a score in [0, 1) from the seed and the document's field
// value, or its number, stable for one index state. Elasticsearch's values differ (its
// hash mixes in the index name and the shard).
type randomScore struct {
	seed  string
	field string
	leaf  *mapper.Leaf
}

func parseRandomScore(c *Context, body any) (valueFunction, error) {
	m, err := asObject("random_score", body)
	if err != nil {
		return nil, err
	}
	if err := checkKeys("random_score", m, "seed", "field"); err != nil {
		return nil, err
	}
	r := &randomScore{seed: strconv.FormatInt(time.Now().UnixMilli(), 10)}
	if s, ok := m["seed"]; ok {
		r.seed = fmt.Sprint(s)
	}
	if f, ok := m["field"].(string); ok && f != "_seq_no" {
		r.field = f
		if r.leaf, err = c.numericLeaf("random_score", f); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *randomScore) bind(v *columns.View) (func(int, uint64) (float64, error), error) {
	values, err := bindValues(v, r.leaf)
	if err != nil {
		return nil, err
	}
	return func(seg int, local uint64) (float64, error) {
		h := fnv.New32a()
		h.Write([]byte(r.seed))
		if vs := valuesOf(values, seg, local); len(vs) > 0 {
			h.Write([]byte(strconv.FormatFloat(vs[0], 'g', -1, 64)))
		} else if values == nil {
			h.Write([]byte(strconv.FormatUint(uint64(seg)<<32|local, 10)))
		}
		return float64(float32(h.Sum32()&0x00FFFFFF) / (1 << 24)), nil
	}, nil
}
