package vectors

import (
	"encoding/binary"
	"errors"
	"io"
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
	q := bounds(dims, n, row, confidence)
	q.codes, q.sums, q.norms = make([]byte, 0, n*dims), make([]float32, n), make([]float32, n)
	for i := 0; i < n; i++ {
		q.codes = q.codeRow(q.codes, row(int32(i)), i)
	}
	return q
}

// bounds are the Lo and Step of n vectors' codes, with no codes yet.
func bounds(dims, n int, row func(int32) []float32, confidence float64) *Quantized {
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
	return &Quantized{Lo: lo, Step: max((hi-lo)/255, 1e-30), dims: dims}
}

// codeRow appends vector i's codes (v) to b and keeps its sum and norm.
func (q *Quantized) codeRow(b []byte, v []float32, i int) []byte {
	var sum float32
	for _, x := range v {
		u := q.code(x)
		sum += float32(u)
		b = append(b, byte(int8(u-128)))
	}
	q.sums[i], q.norms[i] = sum, Magnitude(v)
	return b
}

// QuantizedLen is the length of n vectors' codes of dims as Encode writes them.
func QuantizedLen(dims, n int) int {
	codes := n * dims
	return 8 + codes + (4-(8+codes)%4)%4 + 8*n
}

// WriteQuantized writes what Quantize and Encode would, QuantizedLen bytes, holding a
// chunk of codes at a time rather than all of them: at 100,000 vectors of 512 the codes
// alone are 51 MB, and a merge wrote them twice over (codes, then their encoding).
func WriteQuantized(w io.Writer, dims, n int, row func(int32) []float32, confidence float64) error {
	q := bounds(dims, n, row, confidence)
	q.sums, q.norms = make([]float32, n), make([]float32, n)
	buf := make([]byte, 0, 64<<10+dims)
	buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(q.Lo))
	buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(q.Step))
	for i := 0; i < n; i++ {
		buf = q.codeRow(buf, row(int32(i)), i)
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	for pad := (4 - (8+n*dims)%4) % 4; pad > 0; pad-- {
		buf = append(buf, 0)
	}
	for _, s := range [][]float32{q.sums, q.norms} {
		for _, x := range s {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
	}
	_, err := w.Write(buf)
	return err
}

func (q *Quantized) code(x float32) int32 {
	u := math.Round(float64((x - q.Lo) / q.Step))
	return int32(min(max(u, 0), 255))
}

// codedQuery is a query vector in a segment's codes: signed, u - 128 as the vectors'
// are; unsigned, u itself, for the unsigned-by-signed kernel (dotCodes); and the sum of
// its u.
type codedQuery struct {
	signed   []int8
	unsigned []byte
	sum      float32
}

func (q *Quantized) query(v []float32) codedQuery {
	c := codedQuery{signed: make([]int8, len(v)), unsigned: make([]byte, len(v))}
	for i, x := range v {
		u := q.code(x)
		c.signed[i], c.unsigned[i] = int8(u-128), byte(u)
		c.sum += float32(u)
	}
	return c
}

// Norm is vector i's magnitude (Magnitude of its floats).
func (q *Quantized) Norm(i int32) float32 { return q.norms[i] }

// codesOf are vector i's codes.
func (q *Quantized) codesOf(i int32) []int8 {
	return View8(q.codes[int(i)*q.dims : (int(i)+1)*q.dims])
}

// codeSum is Σb over vector i's signed codes, from its Σu: an integer below 2²⁴, exact
// in the float.
func (q *Quantized) codeSum(i int32) int32 { return int32(q.sums[i]) - 128*int32(q.dims) }

// rank is node i's closeness to the coded query for sim, in the order of its score:
// for dot products x·y ≈ dims Lo² + Lo Step (Σu_x + Σu_y) + Step² Σ u_x u_y.
func (q *Quantized) rank(sim Similarity, qc *codedQuery, qNorm float32, i int32) float32 {
	if sim == L2Norm {
		return -float32(SquareInt8(qc.signed, q.codesOf(i)))
	}
	return q.rankOfDot(sim, qc, qNorm, i, dotCodes(qc.signed, qc.unsigned, q.codesOf(i), q.codeSum(i)))
}

// rankOfDot is rank (not for l2_norm) given Σab, the dot product of the query's signed
// codes and vector i's (dotCodes): a scan computes many at once (dotRows), and both
// ways rank through this one function, so a scan ranks exactly as a walk does.
func (q *Quantized) rankOfDot(sim Similarity, qc *codedQuery, qNorm float32, i int32, ab int32) float32 {
	// Σ u_x u_y (u = code + 128) = Σab + 128(Σu_x + Σu_y) - 128² dims.
	dotU := float32(ab) + 128*(qc.sum+q.sums[i]) - 128*128*float32(q.dims)
	dot := float32(q.dims)*q.Lo*q.Lo + q.Lo*q.Step*(qc.sum+q.sums[i]) + q.Step*q.Step*dotU
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
