package vectors

import "unsafe"

// View8 views bytes as the signed codes they hold.
func View8(b []byte) []int8 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int8)(unsafe.Pointer(&b[0])), len(b))
}

// DotInt8 is the dot product of two int8 vectors of one length. A graph walk of
// int8_hnsw computes one per node it visits: on amd64 with AVX2 the bulk of it runs 32
// codes a step (simd_amd64.s), the rest here.
func DotInt8(a, b []int8) int32 { return int8Kernel(a, b, dotInt8AVX2, dotInt8Go) }

// SquareInt8 is the squared euclidean distance between two int8 vectors of one length.
func SquareInt8(a, b []int8) int32 { return int8Kernel(a, b, squareInt8AVX2, squareInt8Go) }

// int8Kernel sums a kernel over a and b: its AVX2 form over the whole 32-code steps
// when the CPU has AVX2, its Go form over the rest (or all of it).
func int8Kernel(a, b []int8, avx2 func(a, b *int8, n int) int32, tail func(a, b []int8) int32) int32 {
	b = b[:len(a)]
	head := 0
	var s int32
	if useAVX2 {
		head = len(a) &^ 31
		if head > 0 {
			s = avx2(&a[0], &b[0], head)
		}
	}
	return s + tail(a[head:], b[head:])
}

// dotInt8Go keeps four sums, so that the products of one step do not wait on each
// other.
func dotInt8Go(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

func squareInt8Go(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1 := int32(a[i])-int32(b[i]), int32(a[i+1])-int32(b[i+1])
		d2, d3 := int32(a[i+2])-int32(b[i+2]), int32(a[i+3])-int32(b[i+3])
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := int32(a[i]) - int32(b[i])
		s0 += d * d
	}
	return s0 + s1 + s2 + s3
}

// dotCodes is DotInt8(a, b) given a's codes also as unsigned bytes (au[i] = a[i] + 128)
// and the sum of b's: Σab = Σ au·b - 128 Σb. With AVX-512 VNNI one instruction
// (VPDPBUSD) multiplies and sums 64 unsigned-by-signed codes, where the AVX2 form widens
// 32 codes to 16 bits in four; the sums are integers, so the result is DotInt8's exactly.
func dotCodes(a []int8, au []byte, b []int8, bSum int32) int32 {
	if !useVNNI || len(a) < 64 {
		return DotInt8(a, b)
	}
	b, au = b[:len(a)], au[:len(a)]
	head := len(a) &^ 63
	var row, s [1]int32 // one row, the first of b
	dotU8I8VNNIRows(&au[0], &b[0], head, &row[0], 1, &s[0])
	for i := head; i < len(a); i++ {
		s[0] += int32(au[i]) * int32(b[i])
	}
	return s[0] - 128*bSum
}

// fastDot is a dot product for ordering vectors, not for their scores: with FMA it sums
// in eight lanes fused, which can differ from Dot in the last bits. Graph builds, walks
// and the re-ranking of a walk's candidates order by it; scores come from Dot.
func fastDot(a, b []float32) float32 {
	b = b[:len(a)]
	if !useFMA || len(a) < 16 {
		return Dot(a, b)
	}
	head := len(a) &^ 15
	s := dotF32AVX2(&a[0], &b[0], head)
	if head < len(a) {
		s += Dot(a[head:], b[head:])
	}
	return s
}
