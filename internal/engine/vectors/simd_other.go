//go:build !amd64

package vectors

const useAVX2, useFMA, useVNNI = false, false, false

func dotInt8AVX2(a, b *int8, n int) int32    { panic("vectors: no AVX2") }
func squareInt8AVX2(a, b *int8, n int) int32 { panic("vectors: no AVX2") }
func dotU8I8VNNIRows(u *byte, codes *int8, dims int, rows *int32, n int, out *int32) {
	panic("vectors: no AVX-512 VNNI")
}
func dotF32AVX2(a, b *float32, n int) float32 { panic("vectors: no FMA") }
