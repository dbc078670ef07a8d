package vectors

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// unitEpsilon is how far from 1 the squared magnitude of a dot_product float vector may
// be (DenseVectorFieldMapper.EPS).
const unitEpsilon = 1e-3

// Decode reads a document's vector given as a JSON array of numbers, or, for bytes, as a
// hex string (each byte two digits, read as a signed byte). Values are checked against
// the element type: bytes are whole numbers in [-128, 127], floats finite.
func Decode(e Element, v any) ([]float32, error) {
	if s, ok := v.(string); ok && e == Byte {
		return decodeHex(s)
	}
	return decodeArray(e, v)
}

// DecodeQuery reads a query vector: an array, or a hex string whatever the field's
// element type (ES parses the query before it knows the field).
func DecodeQuery(e Element, v any) ([]float32, error) {
	if s, ok := v.(string); ok {
		return decodeHex(s)
	}
	return decodeArray(e, v)
}

func decodeArray(e Element, v any) ([]float32, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("Failed to parse object: expecting token of type [START_ARRAY] but found [%s]", tokenOf(v))
	}
	out := make([]float32, len(arr))
	for i, x := range arr {
		f, err := element(e, i, x)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

func element(e Element, dim int, x any) (float32, error) {
	var f float64
	var err error
	switch n := x.(type) {
	case json.Number:
		f, err = strconv.ParseFloat(string(n), 64)
	case float64:
		f = n
	default:
		return 0, fmt.Errorf("Failed to parse object: expecting token of type [VALUE_NUMBER] but found [%s]", tokenOf(x))
	}
	if err != nil {
		return 0, fmt.Errorf("Failed to parse object: %v", err)
	}
	if e == Byte {
		if f != math.Trunc(f) {
			return 0, fmt.Errorf("element_type [byte] vectors only support non-decimal values but found decimal value [%v] at dim [%d];", f, dim)
		}
		if f < -128 || f > 127 {
			return 0, fmt.Errorf("element_type [byte] vectors only support integers between [-128, 127] but found [%v] at dim [%d];", f, dim)
		}
		return float32(f), nil
	}
	if math.IsNaN(f) || math.IsInf(float64(float32(f)), 0) {
		return 0, fmt.Errorf("element_type [float] vectors only support finite floating point values, but got [%v] at dim [%d]", f, dim)
	}
	return float32(f), nil
}

func decodeHex(s string) ([]float32, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("failed to parse field [query_vector]: %v", err)
	}
	out := make([]float32, len(b))
	for i, x := range b {
		out[i] = float32(int8(x))
	}
	return out, nil
}

func tokenOf(v any) string {
	switch v.(type) {
	case string:
		return "VALUE_STRING"
	case map[string]any:
		return "START_OBJECT"
	case bool:
		return "VALUE_BOOLEAN"
	case nil:
		return "VALUE_NULL"
	}
	return "VALUE_NUMBER"
}

// CheckIndexed checks a document's vector against the field: its dimensions and what
// its similarity requires (a unit vector for dot_product floats, a magnitude for cosine).
func (o Options) CheckIndexed(field, id string, v []float32) error {
	if o.Dims != 0 && len(v) > o.Dims {
		return fmt.Errorf("The [dense_vector] field [%s] in doc [document with id '%s'] has more dimensions than defined in the mapping [%d]", field, id, o.Dims)
	}
	if o.Dims != 0 && len(v) != o.Dims {
		return fmt.Errorf("The [dense_vector] field [%s] in doc [document with id '%s'] has a different number of dimensions [%d] than defined in the mapping [%d]", field, id, len(v), o.Dims)
	}
	if !o.Indexed {
		return nil
	}
	return o.Similarity.check(o.Element, v)
}

// CheckQuery checks a query vector against the field.
func (o Options) CheckQuery(v []float32) error {
	if len(v) != o.Dims {
		return fmt.Errorf("the query vector has a different number of dimensions [%d] than the document vectors [%d].", len(v), o.Dims)
	}
	if o.Element == Byte {
		for i, x := range v {
			if x != float32(math.Trunc(float64(x))) || x < -128 || x > 127 {
				return fmt.Errorf("element_type [byte] vectors only support integers between [-128, 127] but found [%v] at dim [%d];", x, i)
			}
		}
	}
	if o.Similarity == DotProduct && o.Element == Float {
		// ES checks the query vector's magnitude too; the score needs none.
		return o.Similarity.check(o.Element, v)
	}
	if o.Similarity == Cosine {
		return o.Similarity.check(o.Element, v)
	}
	return nil
}

func (s Similarity) check(e Element, v []float32) error {
	sq := Dot(v, v)
	switch {
	case s == Cosine && sq == 0:
		return fmt.Errorf("The [cosine] similarity does not support vectors with zero magnitude. Preview of invalid vector: %s", preview(v))
	case s == DotProduct && e == Float && math.Abs(float64(sq)-1) > unitEpsilon:
		return fmt.Errorf("The [dot_product] similarity can only be used with unit-length vectors. Preview of invalid vector: %s", preview(v))
	}
	return nil
}

func preview(v []float32) string {
	parts := make([]string, 0, min(len(v), 5))
	for _, x := range v[:min(len(v), 5)] {
		parts = append(parts, strconv.FormatFloat(float64(x), 'f', 1, 32))
	}
	s := "[" + strings.Join(parts, ", ")
	if len(v) > 5 {
		s += ", ..."
	}
	return s + "]"
}
