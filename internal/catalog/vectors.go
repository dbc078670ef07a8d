package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aislehq/aisle/internal/esmapping"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// checkVectors checks a record's _vectors against the index's vector fields (one per
// embedder, internal/indexmapping): an object naming embedders of the index, each
// vector as many numbers as its embedder's dimensions, not all zero (a cosine has no
// direction to compare). f is the mapping's _vectors field, nil without embedders; with
// final false, an embedder f lacks is errStale (the index may have been rebuilt with it).
func checkVectors(val any, f *esmapping.Field, final bool) error {
	if val == nil {
		return nil
	}
	obj, ok := val.(map[string]any)
	if !ok {
		return fmt.Errorf("field %q: must be an object of vectors by embedder", indexmapping.VectorsField)
	}
	var fields map[string]*esmapping.Field
	if f != nil {
		fields = f.Properties
	}
	for name, v := range obj {
		path := indexmapping.VectorPath(name)
		vf := fields[name]
		if vf == nil && !final {
			return errStale
		}
		if vf == nil || vf.Type != "dense_vector" || vf.Dims == nil {
			return fmt.Errorf("field %q: the index has no embedder %q (embedders: %s)", path, name, embedderNames(fields))
		}
		if v == nil {
			continue
		}
		if err := checkVector(v, *vf.Dims); err != nil {
			return fmt.Errorf("field %q (embedder %q): %w", path, name, err)
		}
	}
	return nil
}

func checkVector(v any, dims int) error {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("must be an array of %d numbers", dims)
	}
	if len(arr) != dims {
		return fmt.Errorf("must be %d numbers (the embedder's dimensions), got %d", dims, len(arr))
	}
	zero := true
	for i, el := range arr {
		n, ok := el.(json.Number)
		if !ok {
			return fmt.Errorf("[%d] is %s, not a number", i, preview(el))
		}
		x, err := n.Float64()
		if err != nil || math.Abs(x) > math.MaxFloat32 {
			return fmt.Errorf("[%d] is out of range for a float", i)
		}
		zero = zero && x == 0
	}
	if zero {
		return fmt.Errorf("must not be all zeros (a cosine needs a direction)")
	}
	return nil
}

func embedderNames(fields map[string]*esmapping.Field) string {
	var names []string
	for name, f := range fields {
		if f != nil && f.Type == "dense_vector" {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}
