package vectors

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzVectors feeds mapping parameters and vectors, as JSON, to Parse, Decode,
// DecodeQuery and the checks: none may panic, and a vector that passes CheckIndexed has
// the field's dimensions and scores as a number.
func FuzzVectors(f *testing.F) {
	f.Add(`{"dims":3,"similarity":"l2_norm","index_options":{"type":"hnsw","m":16}}`, `[1,2,3]`)
	f.Add(`{"dims":2,"element_type":"byte","similarity":"dot_product"}`, `"807f"`)
	f.Add(`{"dims":2,"index_options":{"type":"int8_flat","confidence_interval":0.9}}`, `[0,0]`)
	f.Add(`{"index":false}`, `[1e40]`)
	f.Fuzz(func(t *testing.T, mapping, vector string) {
		var spec struct {
			Dims         *int   `json:"dims"`
			ElementType  string `json:"element_type"`
			Index        *bool  `json:"index"`
			Similarity   string `json:"similarity"`
			IndexOptions any    `json:"index_options"`
		}
		if json.Unmarshal([]byte(mapping), &spec) != nil {
			return
		}
		o, err := Parse("f", Spec{Dims: spec.Dims, ElementType: spec.ElementType, Index: spec.Index,
			Similarity: spec.Similarity, IndexOptions: spec.IndexOptions})
		if err != nil {
			return
		}
		_ = o.Render()
		dec := json.NewDecoder(bytes.NewReader([]byte(vector)))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		if q, err := DecodeQuery(o.Element, v); err == nil && o.Dims > 0 && o.CheckQuery(q) == nil {
			_ = o.Similarity.Score(o.Element, q, q, Magnitude(q))
		}
		vec, err := Decode(o.Element, v)
		if err != nil || o.Dims == 0 || o.CheckIndexed("f", "1", vec) != nil {
			return
		}
		if len(vec) != o.Dims {
			t.Fatalf("vector of %d dimensions accepted for %d", len(vec), o.Dims)
		}
	})
}
