package zap

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"

	"github.com/RoaringBitmap/roaring/v2"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/aislehq/aisle/internal/engine/vectors"
)

// This file is an addition of the fork (see FORK.md): the dense vectors of each
// dense_vector field, which zapx keeps only with faiss (the `vectors` build tag, cgo),
// written at build and at merge in a section of their own, with the field's HNSW graph
// when its index type has one (internal/engine/vectors).
//
// A field's section: two uvarints fieldNotUninverted (see loadDvReaders); uvarints
// dims, count, similarity, element type, index type (vectors.TypeRank), m,
// ef_construction, the graph's length (0: none) and the int8 codes' length (0: none); a uvarint pad and that many zero bytes, so that what follows starts
// at a multiple of four; count document numbers (uint32, little-endian, ascending);
// count*dims float32s (little-endian), the vectors in the documents' order; for
// int8_hnsw and int4_hnsw, their int8 codes (vectors.Quantized); the graph.

// VectorField is a document field holding one dense vector (the engine's mapper makes
// them); the inverted index section leaves such fields to this one.
type VectorField interface {
	index.Field
	DenseVector() []float32
	VectorOptions() vectors.Options
}

func init() {
	registerSegmentSection(SectionVectors, &vectorSection{})
	invertedTextIndexSectionExclusionChecks = append(invertedTextIndexSectionExclusionChecks,
		func(f index.Field) bool { _, ok := f.(VectorField); return ok })
}

// vectorColumn is one field's vectors as a section is written: the documents' own, or
// a merge's segments' memory, never a copy of them all.
type vectorColumn struct {
	opts vectors.Options
	docs []uint32
	vecs [][]float32
}

type vectorOpaque struct {
	fields map[uint16]*vectorColumn
	addrs  map[int]int
}

func (o *vectorOpaque) Reset() error {
	o.fields, o.addrs = map[uint16]*vectorColumn{}, map[int]int{}
	return nil
}

func (o *vectorOpaque) Set(string, interface{}) {}

type vectorSection struct{}

func (vectorSection) InitOpaque(map[string]interface{}) resetable {
	o := &vectorOpaque{}
	o.Reset()
	return o
}

func vectorOpaqueOf(opaque map[int]resetable) *vectorOpaque {
	return opaque[SectionVectors].(*vectorOpaque)
}

func (vectorSection) Process(opaque map[int]resetable, docNum uint32, f index.Field, fieldID uint16) {
	vf, ok := f.(VectorField)
	if fieldID == math.MaxUint16 || !ok {
		return
	}
	o := vectorOpaqueOf(opaque)
	col := o.fields[fieldID]
	if col == nil {
		col = &vectorColumn{opts: vf.VectorOptions()}
		o.fields[fieldID] = col
	}
	col.docs = append(col.docs, docNum)
	col.vecs = append(col.vecs, vf.DenseVector())
}

func (vectorSection) Persist(opaque map[int]resetable, w *FileWriter) error {
	o := vectorOpaqueOf(opaque)
	ids := make([]int, 0, len(o.fields))
	for id := range o.fields {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		addr, err := writeVectorColumn(o.fields[uint16(id)], w)
		if err != nil {
			return err
		}
		o.addrs[id] = addr
	}
	return nil
}

func (vectorSection) AddrForField(opaque map[int]resetable, fieldID int) int {
	return vectorOpaqueOf(opaque).addrs[fieldID]
}

// Merge writes each field's vectors of the documents the merge keeps, in their new
// order, and builds the field's graph anew over them.
func (vectorSection) Merge(opaque map[int]resetable, segments []*SegmentBase, _ []*roaring.Bitmap, fieldsInv []string,
	newDocNums [][]uint64, w *FileWriter, closeCh chan struct{}) error {
	o := vectorOpaqueOf(opaque)
	for fieldID, name := range fieldsInv {
		if isClosed(closeCh) {
			return fmt.Errorf("merge closed")
		}
		col, err := mergeVectorColumn(segments, name, newDocNums)
		if err != nil {
			return err
		}
		if col == nil {
			continue
		}
		addr, err := writeVectorColumn(col, w)
		if err != nil {
			return err
		}
		o.addrs[fieldID] = addr
	}
	return nil
}

func mergeVectorColumn(segments []*SegmentBase, name string, newDocNums [][]uint64) (*vectorColumn, error) {
	var col *vectorColumn
	for i, sb := range segments {
		v, err := sb.Vectors(name)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		if col == nil {
			col = &vectorColumn{opts: v.Options}
		} else if vectors.TypeRank(v.Options.Type) > vectors.TypeRank(col.opts.Type) {
			// A mapping update moved the field's index type on; the merged segment takes
			// the later type (graph types come after flat ones).
			col.opts = v.Options
		}
		for j, doc := range v.Docs {
			if nd := newDocNums[i][doc]; nd != docDropped {
				col.docs = append(col.docs, uint32(nd))
				col.vecs = append(col.vecs, v.Vector(j))
			}
		}
	}
	if col == nil || len(col.docs) == 0 {
		return nil, nil
	}
	return col, nil
}

func writeVectorColumn(col *vectorColumn, w *FileWriter) (int, error) {
	start := w.Count()
	o := col.opts
	var graph *vectors.Graph
	var graphHead []byte
	graphLen, codesLen := 0, 0
	row := func(i int32) []float32 { return col.vecs[i] }
	if o.Graph() && o.Dims > 0 {
		graph = vectors.BuildGraph(o, len(col.vecs), row)
		graphHead = graph.Head()
		graphLen = len(graphHead) + graph.Layer0Len()
		if o.Quantized() {
			codesLen = vectors.QuantizedLen(o.Dims, len(col.vecs))
		}
	}
	if _, err := writeUvarints(w, fieldNotUninverted, fieldNotUninverted, uint64(o.Dims), uint64(len(col.docs)),
		uint64(o.Similarity), uint64(o.Element), uint64(vectors.TypeRank(o.Type)), uint64(o.M), uint64(o.EfConstruction),
		uint64(graphLen), uint64(codesLen)); err != nil {
		return 0, err
	}
	// The pad's own uvarint is one byte (pad < 4), so the data starts at Count()+1+pad.
	pad := (4 - (w.Count()+1)%4) % 4
	if _, err := writeUvarints(w, uint64(pad)); err != nil {
		return 0, err
	}
	buf := make([]byte, pad, pad+4*len(col.docs))
	for _, d := range col.docs {
		buf = binary.LittleEndian.AppendUint32(buf, d)
	}
	if _, err := w.Write(buf); err != nil {
		return 0, err
	}
	// The vectors go out a chunk at a time: at 100,000 of 512 floats a single buffer
	// would be 200 MB of heap on top of the segments it reads them from.
	buf = buf[:0]
	for _, v := range col.vecs {
		for _, x := range v {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return 0, err
			}
			buf = buf[:0]
		}
	}
	if _, err := w.Write(buf); err != nil {
		return 0, err
	}
	// The codes and the graph's table go out as they are made, a chunk at a time, for
	// the same reason.
	if codesLen > 0 {
		confidence := 0.0
		if o.Confidence != nil {
			confidence = *o.Confidence
		}
		if err := vectors.WriteQuantized(w, o.Dims, len(col.vecs), row, confidence); err != nil {
			return 0, err
		}
	}
	if graph != nil {
		if _, err := w.Write(graphHead); err != nil {
			return 0, err
		}
		if err := graph.WriteLayer0(w); err != nil {
			return 0, err
		}
	}
	return start, nil
}

// SegmentVectors are one field's vectors in a segment: the segment's memory when it
// can be read in place (aligned, on a little-endian machine), else a copy.
type SegmentVectors struct {
	Options vectors.Options
	Docs    []uint32  // the documents with a vector, ascending
	Values  []float32 // their vectors, Options.Dims each, in Docs' order
	Graph   *vectors.Graph
	// Quantized are the int8 codes a graph walk compares (int8_hnsw, int4_hnsw), or nil.
	Quantized *vectors.Quantized
}

// Vector is the vector of the i-th document of Docs.
func (v *SegmentVectors) Vector(i int) []float32 {
	d := v.Options.Dims
	return v.Values[i*d : (i+1)*d]
}

// Vectors reads a field's vectors; nil when the segment has none.
func (sb *SegmentBase) Vectors(field string) (*SegmentVectors, error) {
	fieldIDPlus1 := sb.fieldsMap[field]
	if fieldIDPlus1 == 0 {
		return nil, nil
	}
	pos := sb.fieldsSectionsMap[fieldIDPlus1-1][SectionVectors]
	if pos == 0 {
		return nil, nil
	}
	mem := sb.mem
	var h [12]uint64
	for i := range h {
		x, n := binary.Uvarint(mem[min(pos, uint64(len(mem))):])
		if n <= 0 {
			return nil, fmt.Errorf("field %s: vectors unreadable at %d", field, pos)
		}
		h[i], pos = x, pos+uint64(n)
	}
	dims, count, graphLen, codesLen := h[2], h[3], h[9], h[10]
	pos += h[11]
	end := pos + 4*count + 4*count*dims + codesLen + graphLen
	if dims == 0 || end > uint64(len(mem)) {
		return nil, fmt.Errorf("field %s: %d vectors of %d dimensions past the segment's end", field, count, dims)
	}
	v := &SegmentVectors{Options: vectors.Options{Dims: int(dims), Similarity: vectors.Similarity(h[4]),
		Element: vectors.Element(h[5]), Type: vectors.TypeName(int(h[6])), M: int(h[7]), EfConstruction: int(h[8]),
		Indexed: true}}
	v.Docs = vectors.View32[uint32](mem[pos : pos+4*count])
	pos += 4 * count
	v.Values = vectors.View32[float32](mem[pos : pos+4*count*dims])
	pos += 4 * count * dims
	if codesLen > 0 {
		q, err := vectors.DecodeQuantized(mem[pos:pos+codesLen], int(dims), int(count))
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", field, err)
		}
		v.Quantized = q
		pos += codesLen
	}
	if graphLen > 0 {
		g, err := vectors.DecodeGraph(mem[pos : pos+graphLen])
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", field, err)
		}
		v.Graph = g
	}
	return v, nil
}
