package vectors

import (
	"math"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func randomCodes(rng *rand.Rand, n int) []int8 {
	out := make([]int8, n)
	for i := range out {
		out[i] = int8(rng.IntN(256) - 128)
	}
	return out
}

// unsigned are codes plus 128, as a coded query holds them beside its signed ones.
func unsigned(a []int8) []byte {
	out := make([]byte, len(a))
	for i, x := range a {
		out[i] = byte(int32(x) + 128)
	}
	return out
}

func sum(a []int8) int32 {
	var s int32
	for _, x := range a {
		s += int32(x)
	}
	return s
}

var _ = Describe("int8 distances", func() {
	DescribeTable("equal the plain sums at every length, the extremes included",
		func(n int) {
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			a, b := randomCodes(rng, n), randomCodes(rng, n)
			var dot, sq int32
			for i := range a {
				dot += int32(a[i]) * int32(b[i])
				d := int32(a[i]) - int32(b[i])
				sq += d * d
			}
			Expect(DotInt8(a, b)).To(Equal(dot))
			Expect(SquareInt8(a, b)).To(Equal(sq))
			Expect(dotCodes(a, unsigned(a), b, sum(b))).To(Equal(dot))
			lo, hi := make([]int8, n), make([]int8, n)
			for i := range lo {
				lo[i], hi[i] = -128, 127
			}
			Expect(DotInt8(lo, lo)).To(Equal(int32(n * 128 * 128)))
			Expect(dotCodes(lo, unsigned(lo), lo, sum(lo))).To(Equal(int32(n * 128 * 128)))
			Expect(dotCodes(hi, unsigned(hi), lo, sum(lo))).To(Equal(int32(-n * 127 * 128)))
			Expect(SquareInt8(lo, hi)).To(Equal(int32(n * 255 * 255)))
		},
		Entry("none", 0), Entry("fewer than a step", 7), Entry("one step", 32),
		Entry("a step and a tail", 45), Entry("512 (Universal Sentence Encoder lite)", 512),
		Entry("1,536 and a tail", 1539), Entry("one VNNI step", 64), Entry("two VNNI steps", 128),
		Entry("three VNNI steps and a tail", 200),
	)

	DescribeTable("order floats by a dot product within a float's rounding of Dot's",
		func(n int) {
			a, b := randomVectors(1, n, 5), randomVectors(1, n, 6)
			want := Dot(a, b)
			Expect(fastDot(a, b)).To(BeNumerically("~", want, 1e-4*(1+math.Abs(float64(want)))))
		},
		Entry("fewer than a step", 9), Entry("one step", 16), Entry("a step and a tail", 21),
		Entry("512", 512), Entry("1,536 and a tail", 1539),
	)
})
