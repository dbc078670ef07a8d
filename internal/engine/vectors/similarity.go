// Package vectors holds Elasticsearch's dense_vector rules: the mapping's options and
// their defaults, which vectors a field takes, and the similarities and scores of kNN
// search as ES computes them (DenseVectorFieldMapper.VectorSimilarity over Lucene's
// VectorSimilarityFunction).
package vectors

import (
	"fmt"
	"math"
)

// Similarity is a dense_vector field's similarity.
type Similarity int

// The similarities of ES 8.
const (
	Cosine Similarity = iota
	DotProduct
	L2Norm
	MaxInnerProduct
)

var similarityNames = []string{"cosine", "dot_product", "l2_norm", "max_inner_product"}

func (s Similarity) String() string { return similarityNames[s] }

// ParseSimilarity reads a similarity's name.
func ParseSimilarity(name string) (Similarity, error) {
	for i, n := range similarityNames {
		if n == name {
			return Similarity(i), nil
		}
	}
	return 0, fmt.Errorf("Unknown vector similarity [%s]; available similarities are %v", name, similarityNames)
}

// Element is a dense_vector field's element type.
type Element int

// The element types the engine indexes.
const (
	Float Element = iota
	Byte
)

func (e Element) String() string {
	if e == Byte {
		return "byte"
	}
	return "float"
}

// Dot is the dot product of two vectors of one length, summed in a float32 as Lucene's
// VectorUtil sums it.
func Dot(a, b []float32) float32 {
	// Four sums, as Lucene's vectorized VectorUtil keeps several lanes: about twice as
	// fast as one, and as exact.
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// SquareDistance is the square of the euclidean distance between two vectors.
func SquareDistance(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// Score is the _score of a document's vector v for the query vector q, with the
// query's magnitude qNorm (used by cosine only).
func (s Similarity) Score(e Element, q, v []float32, qNorm float32) float32 {
	switch s {
	case L2Norm:
		return 1 / (1 + SquareDistance(q, v))
	case DotProduct:
		return s.FromRaw(e, len(q), Dot(q, v))
	case MaxInnerProduct:
		return scaleMaxInnerProduct(Dot(q, v))
	}
	return s.ScoreNormed(e, q, v, qNorm, Magnitude(v))
}

// ScoreNormed is Score given v's magnitude vNorm too (a segment's int8 codes keep each
// vector's, see Quantized.Norm): for cosine one pass over v instead of two, the same
// score, as vNorm is what Score would compute.
func (s Similarity) ScoreNormed(e Element, q, v []float32, qNorm, vNorm float32) float32 {
	if s != Cosine {
		return s.Score(e, q, v, qNorm)
	}
	return s.FromRaw(e, len(q), Dot(q, v)/(qNorm*vNorm))
}

// FromRaw turns a raw similarity (the cosine, the dot product, the l2 distance) into a
// score: the knn option `similarity` is such a value, compared with scores through it.
func (s Similarity) FromRaw(e Element, dims int, raw float32) float32 {
	switch s {
	case L2Norm:
		return 1 / (1 + raw*raw)
	case DotProduct:
		if e == Byte {
			return 0.5 + raw/float32(dims*(1<<15))
		}
		return max((1+raw)/2, 0)
	case MaxInnerProduct:
		return scaleMaxInnerProduct(raw)
	}
	return max((1+raw)/2, 0)
}

// scaleMaxInnerProduct is Lucene's VectorUtil.scaleMaxInnerProductScore: a dot product
// mapped onto positive scores, keeping its order.
func scaleMaxInnerProduct(dot float32) float32 {
	if dot < 0 {
		return 1 / (1 + -1*dot)
	}
	return dot + 1
}

// Magnitude is a vector's euclidean length.
func Magnitude(v []float32) float32 { return float32(math.Sqrt(float64(Dot(v, v)))) }
