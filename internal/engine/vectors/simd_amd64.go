package vectors

import "golang.org/x/sys/cpu"

// The kernels of simd_amd64.s, where the processor has them.
var (
	useAVX2 = cpu.X86.HasAVX2
	useFMA  = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	useVNNI = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VNNI
)

// dotInt8AVX2 and squareInt8AVX2 take n codes of a and b, n a multiple of 32.
//
//go:noescape
func dotInt8AVX2(a, b *int8, n int) int32

//go:noescape
func squareInt8AVX2(a, b *int8, n int) int32

// dotU8I8VNNIRows sets out[j] to Σ u[i]·s[i] over the dims codes of row rows[j] of codes,
// for each of the n rows; dims a multiple of 64.
//
//go:noescape
func dotU8I8VNNIRows(u *byte, codes *int8, dims int, rows *int32, n int, out *int32)

// dotF32AVX2 takes n values of a and b, n a multiple of 16.
//
//go:noescape
func dotF32AVX2(a, b *float32, n int) float32
