package searcher

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Choosing the engine's own search loop", func() {
	plain := loopCase{on: true, indices: 1, size: 20}
	with := func(change func(*loopCase)) loopCase {
		c := plain
		change(&c)
		return c
	}
	DescribeTable("a search's hits come from the loop only when it ranks them as bleve would",
		func(c loopCase, want bool) { Expect(loopable(c)).To(Equal(want)) },
		Entry("one index, by score", plain, true),
		Entry("the aggregations collected in the hits search", with(func(c *loopCase) {}), true),
		Entry("switched off", with(func(c *loopCase) { c.on = false }), false),
		Entry("several indices", with(func(c *loopCase) { c.indices = 2 }), false),
		Entry("no hit asked for", with(func(c *loopCase) { c.size = 0 }), false),
		Entry("a sort", with(func(c *loopCase) { c.sorted = true }), false),
		Entry("collapse", with(func(c *loopCase) { c.collapsed = true }), false),
		Entry("a post_filter", with(func(c *loopCase) { c.postFilter = true }), false),
		Entry("named queries", with(func(c *loopCase) { c.named = true }), false),
		Entry("aggregations searched apart", with(func(c *loopCase) { c.aggsApart = true }), false),
	)
})
