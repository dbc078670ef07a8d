package searcher

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Choosing how a search runs", func() {
	plain := routeCase{loopOn: true, indices: 1, size: 20, loopQuery: true, loopSorts: true}
	with := func(change func(*routeCase)) routeCase {
		c := plain
		change(&c)
		return c
	}
	DescribeTable("one decision says where the aggregations are collected and what finds the hits",
		func(c routeCase, want route) { Expect(routeOf(c)).To(Equal(want)) },
		Entry("one index, by score or a sort the loop ranks by: the loop", plain, route{noAggs, hitsLoop}),
		Entry("aggregations of one index's hits: collected in the loop's pass",
			with(func(c *routeCase) { c.aggs = true }), route{aggsInHits, hitsLoop}),
		Entry("switched off: bleve", with(func(c *routeCase) { c.loopOn = false }), route{noAggs, hitsBleve}),
		Entry("several indices: bleve", with(func(c *routeCase) { c.indices = 2 }), route{noAggs, hitsBleve}),
		Entry("aggregations of several indices: searched per index, hits by bleve",
			with(func(c *routeCase) { c.indices, c.aggs = 2, true }), route{aggsPerIndex, hitsBleve}),
		Entry("no hit asked for: bleve counts the total", with(func(c *routeCase) { c.size = 0 }), route{noAggs, hitsBleve}),
		Entry("no hit asked for, with aggregations: their searches count the total",
			with(func(c *routeCase) { c.size, c.aggs = 0, true }), route{aggsPerIndex, noHitsSearch}),
		Entry("a query part the loop does not run: bleve", with(func(c *routeCase) { c.loopQuery = false }), route{noAggs, hitsBleve}),
		Entry("a sort the loop does not rank by: bleve", with(func(c *routeCase) { c.loopSorts = false }), route{noAggs, hitsBleve}),
		Entry("search_after: bleve", with(func(c *routeCase) { c.after = true }), route{noAggs, hitsBleve}),
		Entry("named queries: bleve", with(func(c *routeCase) { c.named = true }), route{noAggs, hitsBleve}),
		Entry("collapse: the collapse's searches", with(func(c *routeCase) { c.collapsed = true }), route{noAggs, hitsCollapsed}),
		Entry("collapse of several indices, aggregations apart",
			with(func(c *routeCase) { c.collapsed, c.indices, c.aggs = true, 2, true }), route{aggsPerIndex, hitsCollapsed}),
		Entry("collapse without hits asked for: no collapse to run",
			with(func(c *routeCase) { c.collapsed, c.size = true, 0 }), route{noAggs, hitsBleve}),
	)
})
