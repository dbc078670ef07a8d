package vectors

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// MaxDims is the most dimensions a dense_vector field takes (ES 8's limit).
const MaxDims = 4096

// Index types of index_options, in the order an update may move along (see Updatable).
var indexTypes = []string{"flat", "int8_flat", "int4_flat", "hnsw", "int8_hnsw", "int4_hnsw"}

// Options are a dense_vector field's mapping, with ES's defaults applied.
type Options struct {
	Dims       int // 0 until the mapping or the first vector sets it
	Element    Element
	Indexed    bool
	Similarity Similarity
	// Type is index_options.type; M and EfConstruction its graph's parameters (hnsw
	// types only); Confidence its confidence_interval (quantized types), nil when unset.
	Type           string
	M              int
	EfConstruction int
	Confidence     *float64
}

// Graph reports whether the field's segments hold an HNSW graph.
func (o Options) Graph() bool { return strings.HasSuffix(o.Type, "hnsw") }

// Quantized reports whether the index type quantizes its vectors.
func (o Options) Quantized() bool { return strings.HasPrefix(o.Type, "int") }

// Spec is what a mapping says of a dense_vector field, as decoded.
type Spec struct {
	Dims         *int
	ElementType  string
	Index        *bool
	Similarity   string
	IndexOptions any
}

// Parse validates a dense_vector mapping of field name and applies ES's defaults; errors
// say what ES's mapper parser says.
func Parse(name string, s Spec) (Options, error) {
	o := Options{Indexed: s.Index == nil || *s.Index}
	switch s.ElementType {
	case "", "float":
	case "byte":
		o.Element = Byte
	default:
		return o, fmt.Errorf("invalid element_type [%s]; available types are [float, byte]", s.ElementType)
	}
	if s.Dims != nil {
		if *s.Dims < 1 || *s.Dims > MaxDims {
			return o, fmt.Errorf("The number of dimensions should be in the range [1, %d] but was [%d]", MaxDims, *s.Dims)
		}
		o.Dims = *s.Dims
	}
	if !o.Indexed {
		if s.Similarity != "" {
			return o, fmt.Errorf("Field [similarity] can only be specified for a field of type [dense_vector] when it is indexed")
		}
		if s.IndexOptions != nil {
			return o, fmt.Errorf("Field [index_options] can only be specified for a field of type [dense_vector] when it is indexed")
		}
		return o, nil
	}
	if s.Similarity != "" {
		sim, err := ParseSimilarity(s.Similarity)
		if err != nil {
			return o, err
		}
		o.Similarity = sim
	}
	return o, o.parseIndexOptions(name, s.IndexOptions)
}

// parseIndexOptions reads index_options, or sets ES 8's default: int8_hnsw for floats,
// hnsw for bytes, m 16 and ef_construction 100.
func (o *Options) parseIndexOptions(name string, raw any) error {
	if raw == nil {
		o.Type, o.M, o.EfConstruction = "int8_hnsw", 16, 100
		if o.Element == Byte {
			o.Type = "hnsw"
		}
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf("Failed to parse mapping: [index_options] on mapper [%s] of type [dense_vector] must be an object", name)
	}
	t, _ := m["type"].(string)
	if t == "" {
		return fmt.Errorf("[index_options] requires field [type] to be configured")
	}
	if indexRank(t) < 0 {
		return fmt.Errorf("Unknown vector index options type [%s] for field [%s]", t, name)
	}
	o.Type = t
	if o.Quantized() && o.Element == Byte {
		return fmt.Errorf("[element_type] cannot be [byte] when using index type [%s]", t)
	}
	allowed := map[string]bool{"type": true}
	if o.Graph() {
		allowed["m"], allowed["ef_construction"] = true, true
	}
	if o.Quantized() {
		allowed["confidence_interval"] = true
	}
	var extra []string
	for k, v := range m {
		if !allowed[k] {
			extra = append(extra, fmt.Sprintf("%s : %v", k, v))
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("Mapping definition for [%s] has unsupported parameters:  [%s]", name, strings.Join(extra, ", "))
	}
	return o.graphParams(m)
}

func (o *Options) graphParams(m map[string]any) error {
	var err error
	if o.Graph() {
		if o.M, err = intParam(m, "m", 16); err == nil {
			o.EfConstruction, err = intParam(m, "ef_construction", 100)
		}
		if err != nil {
			return err
		}
		if o.M < 1 || o.M > 512 {
			return fmt.Errorf("[m] must be in the range [1, 512] but was [%d]", o.M)
		}
		if o.EfConstruction < 1 || o.EfConstruction > 3200 {
			return fmt.Errorf("[ef_construction] must be in the range [1, 3200] but was [%d]", o.EfConstruction)
		}
	}
	if c, ok := m["confidence_interval"]; ok {
		f, err := number(c)
		if err != nil || f < 0 || f > 1 {
			return fmt.Errorf("[confidence_interval] must be between 0.0 and 1.0, got [%v]", c)
		}
		o.Confidence = &f
	}
	return nil
}

func intParam(m map[string]any, key string, def int) (int, error) {
	v, ok := m[key]
	if !ok {
		return def, nil
	}
	f, err := number(v)
	if err != nil || f != float64(int(f)) {
		return 0, fmt.Errorf("[%s] must be an integer but was [%v]", key, v)
	}
	return int(f), nil
}

func number(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	}
	return 0, fmt.Errorf("not a number: %v", v)
}

// TypeRank is an index type's place in the order updates move along (-1: unknown);
// TypeName its inverse.
func TypeRank(t string) int { return indexRank(t) }

// TypeName is the index type of a rank TypeRank gave.
func TypeName(rank int) string {
	if rank < 0 || rank >= len(indexTypes) {
		return ""
	}
	return indexTypes[rank]
}

func indexRank(t string) int {
	for i, n := range indexTypes {
		if n == t {
			return i
		}
	}
	return -1
}

// Render is the field's mapping as ES shows it, defaults included.
func (o Options) Render() map[string]any {
	m := map[string]any{"type": "dense_vector", "index": o.Indexed}
	if o.Dims > 0 {
		m["dims"] = o.Dims
	}
	if o.Element == Byte {
		m["element_type"] = "byte"
	}
	if o.Indexed {
		m["similarity"] = o.Similarity.String()
		m["index_options"] = o.RenderIndexOptions()
	}
	return m
}

// RenderIndexOptions is index_options as ES shows it.
func (o Options) RenderIndexOptions() map[string]any {
	io := map[string]any{"type": o.Type}
	if o.Graph() {
		io["m"], io["ef_construction"] = o.M, o.EfConstruction
	}
	if o.Confidence != nil {
		io["confidence_interval"] = *o.Confidence
	}
	return io
}

// Updatable says whether a mapping update may change the field from o to n: only the
// index type may change (towards quantized and graph types, as ES allows), and the
// dimensions once, from unset.
func (o Options) Updatable(name string, n Options) error {
	conflict := func(param string, a, b any) error {
		return fmt.Errorf("Mapper for [%s] conflicts with existing mapper:\n\tCannot update parameter [%s] from [%v] to [%v]", name, param, a, b)
	}
	switch {
	case o.Dims != 0 && n.Dims != 0 && o.Dims != n.Dims:
		return conflict("dims", o.Dims, n.Dims)
	case o.Element != n.Element:
		return conflict("element_type", o.Element, n.Element)
	case o.Indexed != n.Indexed:
		return conflict("index", o.Indexed, n.Indexed)
	case o.Similarity != n.Similarity:
		return conflict("similarity", o.Similarity, n.Similarity)
	}
	if o.Indexed && !typeUpdatable(o, n) {
		return conflict("index_options", o.RenderIndexOptions(), n.RenderIndexOptions())
	}
	return nil
}

// typeUpdatable is each index type's updatableTo: a flat type to any type from it on,
// a graph type to a graph type from it on, whose m is no smaller.
func typeUpdatable(o, n Options) bool {
	from, to := indexRank(o.Type), indexRank(n.Type)
	if to < from {
		return false
	}
	if o.Graph() {
		return n.Graph() && n.M >= o.M
	}
	return true
}
