package engine_test

import (
	"math"
	"os"
	"runtime/debug"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/engine"
)

// TuneGC changes process-wide knobs: every spec puts them back, and runs alone.
var _ = Describe("TuneGC, which `aisle engine` runs before it serves", Serial, func() {
	const before = 100 // the GOGC each spec starts from
	var limitBefore int64

	BeforeEach(func() {
		DeferCleanup(debug.SetGCPercent, debug.SetGCPercent(before))
		limitBefore = debug.SetMemoryLimit(-1)
		DeferCleanup(debug.SetMemoryLimit, limitBefore)
		for _, name := range []string{"GOGC", "GOMEMLIMIT", "AUTOMEMLIMIT"} {
			unsetenv(name)
		}
	})

	It("sets GOGC to 400 and a heap limit of 75% of the memory when the environment sets neither", func() {
		limit, err := engine.TuneGC()
		Expect(err).NotTo(HaveOccurred())
		Expect(debug.SetGCPercent(before)).To(Equal(400))
		Expect(debug.SetMemoryLimit(-1)).To(Equal(limit))
		Expect(limit).To(BeNumerically(">", 0))
		Expect(limit).To(BeNumerically("<", int64(math.MaxInt64)))
		// The memory found (the cgroup's limit, else the machine's) is the library's to
		// read; the share taken of it is ours: twice what AUTOMEMLIMIT=0.375 takes.
		GinkgoT().Setenv("AUTOMEMLIMIT", "0.375")
		half, err := engine.TuneGC()
		Expect(err).NotTo(HaveOccurred())
		Expect(float64(limit) / float64(half)).To(BeNumerically("~", 2, 0.001))
	})

	DescribeTable("leaves what the operator chose",
		func(env map[string]string, wantPercent int, wantLimit func(int64) bool) {
			for name, value := range env {
				GinkgoT().Setenv(name, value)
			}
			limit, err := engine.TuneGC()
			Expect(err).NotTo(HaveOccurred())
			Expect(debug.SetGCPercent(before)).To(Equal(wantPercent))
			Expect(wantLimit(limit)).To(BeTrue(), "limit %d", limit)
			Expect(debug.SetMemoryLimit(-1)).To(Equal(limit))
		},
		Entry("GOGC set: only the heap limit is set", map[string]string{"GOGC": "50"}, before,
			func(l int64) bool { return l > 0 && l < math.MaxInt64 }),
		Entry("GOMEMLIMIT set: the runtime's limit stands", map[string]string{"GOMEMLIMIT": "1GiB"}, 400,
			func(l int64) bool { return l == limitBefore }),
		Entry("AUTOMEMLIMIT=off: no heap limit is set", map[string]string{"AUTOMEMLIMIT": "off"}, 400,
			func(l int64) bool { return l == limitBefore }),
	)

	It("refuses an AUTOMEMLIMIT that is not a ratio, and leaves the heap limit alone", func() {
		GinkgoT().Setenv("AUTOMEMLIMIT", "lots")
		limit, err := engine.TuneGC()
		Expect(err).To(MatchError(ContainSubstring("AUTOMEMLIMIT")))
		Expect(limit).To(Equal(limitBefore))
		Expect(debug.SetMemoryLimit(-1)).To(Equal(limitBefore))
	})
})

// unsetenv removes name from the environment for the current spec.
func unsetenv(name string) {
	if value, ok := os.LookupEnv(name); ok {
		Expect(os.Unsetenv(name)).To(Succeed())
		DeferCleanup(os.Setenv, name, value)
	}
}
