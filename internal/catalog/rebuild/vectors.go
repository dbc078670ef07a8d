package rebuild

import (
	"bytes"
	"encoding/json"
	"fmt"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/indexmapping"
)

// The target's settings say which vectors a record carries: the copy leaves out those
// of embedders the settings no longer have (removed or renamed), so neither the records
// nor, through syncFields, the new mapping keep them; and a vector of other dimensions
// than its embedder's now are (the target's dense_vector would refuse the record, and
// the rebuild could never finish), with its state, so that the worker embeds it again.

// vectorKeep is, per embedder of the target, its dimensions and whether the system
// computes its vectors (and keeps a state beside them).
type vectorKeep map[string]keptEmbedder

type keptEmbedder struct {
	dims     int
	computed bool
}

// vectorsOf is what the target built from s keeps.
func vectorsOf(s searchv1alpha1.IndexSettings) vectorKeep {
	out := vectorKeep{}
	for name, e := range indexmapping.Embedders(s) {
		out[name] = keptEmbedder{dims: int(e.Dimensions), computed: e.Source == searchv1alpha1.EmbedderOpenAI}
	}
	return out
}

var (
	vectorsKey = []byte(`"` + indexmapping.VectorsField + `"`)
	stateKey   = []byte(`"` + indexmapping.EmbedStateField + `"`)
)

// keepVectors returns the stored record src with only the vectors and states keep
// holds; src itself when it holds neither field.
func keepVectors(src json.RawMessage, keep vectorKeep) (json.RawMessage, error) {
	if !bytes.Contains(src, vectorsKey) && !bytes.Contains(src, stateKey) {
		return src, nil
	}
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(src, &rec); err != nil {
		return nil, fmt.Errorf("decoding a stored record: %w", err)
	}
	vectors, err := subObject(rec, indexmapping.VectorsField)
	if err != nil {
		return nil, err
	}
	states, err := subObject(rec, indexmapping.EmbedStateField)
	if err != nil {
		return nil, err
	}
	n := len(vectors) + len(states)
	for name, v := range vectors {
		if e, ok := keep[name]; !ok || !fits(v, e.dims) {
			delete(vectors, name)
			delete(states, name)
		}
	}
	for name := range states {
		if e, ok := keep[name]; !ok || !e.computed {
			delete(states, name)
		}
	}
	if len(vectors)+len(states) == n {
		return src, nil // everything is kept: the record is copied as stored
	}
	if err := setSubObject(rec, indexmapping.VectorsField, vectors); err != nil {
		return nil, err
	}
	if err := setSubObject(rec, indexmapping.EmbedStateField, states); err != nil {
		return nil, err
	}
	return marshal(rec)
}

// marshal encodes v without escaping <, > and &, so that the text of a copied record
// stays byte for byte as written.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding a record: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// fits: a null vector (a computed one of an empty text) or one of dims numbers.
func fits(v json.RawMessage, dims int) bool {
	v = bytes.TrimSpace(v)
	if bytes.Equal(v, []byte("null")) {
		return true
	}
	if len(v) < 2 || v[0] != '[' || v[len(v)-1] != ']' {
		return false
	}
	inner := bytes.TrimSpace(v[1 : len(v)-1])
	if bytes.ContainsAny(inner, `[{"`) {
		// Not a flat array of numbers (a write checks vectors, so only a stored record
		// from before that check): counted the slow way.
		var arr []json.RawMessage
		return json.Unmarshal(v, &arr) == nil && len(arr) == dims
	}
	if len(inner) == 0 {
		return dims == 0
	}
	return bytes.Count(inner, []byte(",")) == dims-1
}

func subObject(rec map[string]json.RawMessage, key string) (map[string]json.RawMessage, error) {
	raw, ok := rec[key]
	if !ok {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("decoding the %s of a stored record: %w", key, err)
	}
	return obj, nil
}

// setSubObject writes obj back under key, or drops key when obj is left empty.
func setSubObject(rec map[string]json.RawMessage, key string, obj map[string]json.RawMessage) error {
	if len(obj) == 0 {
		delete(rec, key)
		return nil
	}
	raw, err := marshal(obj)
	if err != nil {
		return err
	}
	rec[key] = raw
	return nil
}
