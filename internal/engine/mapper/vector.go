package mapper

import (
	"strings"

	"github.com/blevesearch/bleve/v2/document"

	"github.com/aislehq/aisle/internal/engine/eserr"
	"github.com/aislehq/aisle/internal/engine/vectors"
)

// DenseVector is the mapping type of vectors for kNN search.
const DenseVector = "dense_vector"

// FieldAt is the field mapped at a dotted path (not a multi-field), or nil.
func FieldAt(m *Mapping, path string) *Field {
	props := m.Properties
	for {
		if f := props[path]; f != nil {
			return f
		}
		head, rest, ok := strings.Cut(path, ".")
		f := props[head]
		if !ok || f == nil || !f.IsObject() {
			return nil
		}
		props, path = f.Properties, rest
	}
}

// VectorOptions reads a dense_vector field's options from its mapping (already checked
// by Parse, so it cannot fail on a stored mapping).
func VectorOptions(f *Field) vectors.Options {
	o, _ := vectors.Parse("", vectorSpec(f))
	return o
}

func vectorSpec(f *Field) vectors.Spec {
	return vectors.Spec{Dims: f.Dims, ElementType: f.ElementType, Index: f.Index,
		Similarity: f.Similarity, IndexOptions: f.IndexOptions}
}

// normalizeVector validates a dense_vector mapping and writes ES's defaults into it, so
// the mapping shows them and stores them as ES does.
func normalizeVector(name string, f *Field) error {
	if f.Fields != nil {
		return eserr.MapperParsing("Failed to parse mapping: Field [fields] is not supported for [dense_vector] fields")
	}
	o, err := vectors.Parse(name, vectorSpec(f))
	if err != nil {
		return eserr.MapperParsing("Failed to parse mapping: %s", err.Error())
	}
	setVector(f, o)
	return nil
}

func setVector(f *Field, o vectors.Options) {
	indexed := o.Indexed
	f.Index = &indexed
	f.ElementType = o.Element.String()
	if o.Dims > 0 {
		dims := o.Dims
		f.Dims = &dims
	}
	f.Similarity, f.IndexOptions = "", nil
	if indexed {
		f.Similarity = o.Similarity.String()
		f.IndexOptions = o.RenderIndexOptions()
	}
}

// mergeVector applies an update of a dense_vector field: its index type may move on
// (hnsw to int8_hnsw, flat to hnsw, ...) and unset dimensions be set.
func mergeVector(path string, of, nf *Field) error {
	o, n := VectorOptions(of), VectorOptions(nf)
	if err := o.Updatable(path, n); err != nil {
		return eserr.IllegalArgument("%s", err.Error())
	}
	if n.Dims == 0 {
		n.Dims = o.Dims
	}
	setVector(of, n)
	return nil
}

// vectorField is a document's vector for one dense_vector field: the segment keeps it
// in a section of its own (internal/engine/zap's VectorField), not in postings.
type vectorField struct {
	document.TextField
	vector []float32
	opts   vectors.Options
}

// VectorOptions implements zap.VectorField.
func (f *vectorField) VectorOptions() vectors.Options { return f.opts }

// DenseVector implements zap.VectorField.
func (f *vectorField) DenseVector() []float32 { return f.vector }

// Analyze implements document.Field: a vector has no terms.
func (f *vectorField) Analyze() {}

// vector checks a document's value of a dense_vector field and adds it.
func (w *walker) vector(path string, f *Field, v any) error {
	o := VectorOptions(f)
	vec, err := vectors.Decode(o.Element, v)
	if err == nil {
		err = o.CheckIndexed(path, w.id, vec)
	}
	if err != nil {
		return w.typeErr(path, DenseVector, v, err.Error())
	}
	if len(vec) == 0 {
		return nil
	}
	w.doc.AddField(&vectorField{TextField: *document.NewTextFieldWithIndexingOptions(path, nil, nil, 0), vector: vec, opts: o})
	w.seen[path] = true
	return nil
}

// vectorDims is the mapping update a document's first vector makes to a dense_vector
// field without dimensions (nil when it makes none): ES sets them from it.
func vectorDims(f *Field, v any) *Field {
	if f.Dims != nil {
		return nil
	}
	o := VectorOptions(f)
	vec, err := vectors.Decode(o.Element, v)
	if err != nil || len(vec) == 0 {
		return nil
	}
	u := cloneField(f)
	dims := len(vec)
	u.Dims = &dims
	return u
}
