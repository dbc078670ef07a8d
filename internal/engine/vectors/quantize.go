package vectors

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// Quantized are a segment's vectors in int8 (the int8_hnsw and int4_hnsw index types,
// as Lucene's scalar quantization keeps them): each value x is coded as u in [0, 255],
// x ≈ Lo + u * Step, with Lo and Step from the quantiles of the segment's values at the
// confidence interval. A graph walk compares codes, a quarter of the floats' bytes read
// per node, and the candidates it keeps are scored again from the floats, so scores stay
// exact.
type Quantized struct {
	Lo, Step float32
	dims     int
	codes    []byte    // n * dims, u - 128 as a signed byte
	sums     []float32 // per vector, the sum of its u
	norms    []float32 // per vector, its magnitude (cosine)
}

// defaultConfidence is Lucene's for a dimension count: 1 - 1 / (dims + 1).
func defaultConfidence(dims int) float64 { return 1 - 1/float64(dims+1) }

// Quantize codes n vectors (row gives the i-th) at confidence (0: the default for
// their dimensions). The quantiles come from at most 100,000 values, evenly spaced.
func Quantize(dims, n int, row func(int32) []float32, confidence float64) *Quantized {
	if confidence <= 0 {
		confidence = defaultConfidence(dims)
	}
	total := n * dims
	stride := max(1, total/100000)
	sample := make([]float32, 0, total/stride+1)
	for i := 0; i < total; i += stride {
		sample = append(sample, row(int32(i / dims))[i%dims])
	}
	slices.Sort(sample)
	cut := int(float64(len(sample)) * (1 - confidence) / 2)
	lo, hi := sample[cut], sample[len(sample)-1-cut]
	q := &Quantized{Lo: lo, Step: max((hi-lo)/255, 1e-30), dims: dims,
		codes: make([]byte, 0, total), sums: make([]float32, n), norms: make([]float32, n)}
	for i := 0; i < n; i++ {
		v := row(int32(i))
		var sum float32
		for _, x := range v {
			u := q.code(x)
			sum += float32(u)
			q.codes = append(q.codes, byte(int8(u-128)))
		}
		q.sums[i], q.norms[i] = sum, Magnitude(v)
	}
	return q
}

func (q *Quantized) code(x float32) int32 {
	u := math.Round(float64((x - q.Lo) / q.Step))
	return int32(min(max(u, 0), 255))
}

// query codes a query vector: its codes and their sum.
func (q *Quantized) query(v []float32) ([]int32, float32) {
	out := make([]int32, len(v))
	var sum float32
	for i, x := range v {
		out[i] = q.code(x)
		sum += float32(out[i])
	}
	return out, sum
}

// dotCodes is the dot product of a query's codes and vector i's.
func (q *Quantized) dotCodes(qu []int32, i int32) int32 {
	c := q.codes[int(i)*q.dims : (int(i)+1)*q.dims]
	var s int32
	for j, u := range qu {
		s += u * (int32(int8(c[j])) + 128)
	}
	return s
}

// squareCodes is the squared distance between a query's codes and vector i's.
func (q *Quantized) squareCodes(qu []int32, i int32) int32 {
	c := q.codes[int(i)*q.dims : (int(i)+1)*q.dims]
	var s int32
	for j, u := range qu {
		d := u - (int32(int8(c[j])) + 128)
		s += d * d
	}
	return s
}

// rank is node i's closeness to the coded query for sim, in the order of its score:
// for dot products x·y ≈ dims Lo² + Lo Step (Σu_x + Σu_y) + Step² Σ u_x u_y.
func (q *Quantized) rank(sim Similarity, qu []int32, qSum, qNorm float32, i int32) float32 {
	if sim == L2Norm {
		return -float32(q.squareCodes(qu, i))
	}
	dot := float32(q.dims)*q.Lo*q.Lo + q.Lo*q.Step*(qSum+q.sums[i]) + q.Step*q.Step*float32(q.dotCodes(qu, i))
	if sim == Cosine {
		if q.norms[i] == 0 || qNorm == 0 {
			return -1
		}
		return dot / (qNorm * q.norms[i])
	}
	return dot
}

// Encode writes Lo and Step, the codes, then sums and norms (float32s, little-endian),
// padded so the floats start at a multiple of four from the start.
func (q *Quantized) Encode() []byte {
	n := len(q.sums)
	b := make([]byte, 0, 8+len(q.codes)+3+8*n)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(q.Lo))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(q.Step))
	b = append(b, q.codes...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	for _, s := range [][]float32{q.sums, q.norms} {
		for _, x := range s {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	}
	return b
}

var errQuantized = errors.New("quantized vectors unreadable")

// DecodeQuantized reads n vectors of dims that Encode wrote, in place.
func DecodeQuantized(b []byte, dims, n int) (*Quantized, error) {
	codes := n * dims
	pad := (4 - (8+codes)%4) % 4
	if len(b) != 8+codes+pad+8*n {
		return nil, errQuantized
	}
	q := &Quantized{dims: dims, Lo: math.Float32frombits(binary.LittleEndian.Uint32(b)),
		Step: math.Float32frombits(binary.LittleEndian.Uint32(b[4:])), codes: b[8 : 8+codes]}
	floats := View32[float32](b[8+codes+pad:])
	q.sums, q.norms = floats[:n], floats[n:]
	return q, nil
}
