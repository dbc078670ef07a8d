package engine

import (
	"context"
	"runtime/debug"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

const mib = 1 << 20

var _ = DescribeTable("The heap limit under a resident budget",
	func(budget, base, file, want int64) {
		Expect(heapLimitFor(budget*mib, base*mib, file*mib)).To(Equal(want * mib))
	},
	Entry("GOMEMLIMIT=1GiB with 88 MiB of mapped files: the files come out of the heap", int64(1024), int64(1024), int64(88), int64(1024-88-64)),
	Entry("a 1 GiB container: its 768 MiB heap already leaves room for 88 MiB of files", int64(1024), int64(768), int64(88), int64(768)),
	Entry("a 1 GiB container whose files outgrow the quarter left to them", int64(1024), int64(768), int64(400), int64(1024-400-64)),
	Entry("files larger than half the budget: the heap keeps half", int64(1024), int64(1024), int64(700), int64(512)),
	Entry("no files resident", int64(2048), int64(2048), int64(0), int64(2048-128)),
)

var _ = Describe("HoldResident", Serial, func() {
	It("takes the process's resident file-backed memory out of the heap limit, and stops with its context", func() {
		file, ok := residentFileBytes()
		Expect(ok).To(BeTrue(), "RssFile in /proc/self/status")
		Expect(file).To(BeNumerically(">", 0), "the test binary's own pages are file-backed")
		before := debug.SetMemoryLimit(-1)
		DeferCleanup(debug.SetMemoryLimit, before)
		budget := 64*file + 1<<30
		debug.SetMemoryLimit(budget)

		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { HoldResident(ctx, budget); close(done) }()
		Eventually(func() int64 { return debug.SetMemoryLimit(-1) }).Should(And(
			BeNumerically("<", budget-file),
			BeNumerically(">=", budget-file-budget/16-4*mib))) // the files change a little meanwhile
		cancel()
		Eventually(done).Should(BeClosed())
	})
})
