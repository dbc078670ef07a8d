package searchquery_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Dropping the last word of a search that matches nothing", func() {
	DescribeTable("searches again without one more word only when nothing matched and the plan allows it",
		func(retry, matched bool, drop, wantDrop int, wantAgain bool) {
			next, again := searchquery.NextDrop(retry, matched, drop)
			Expect(again).To(Equal(wantAgain))
			Expect(next).To(Equal(wantDrop))
		},
		Entry("nothing matched, words left to drop", true, false, 0, 1, true),
		Entry("nothing matched after dropping two", true, false, 2, 3, true),
		Entry("something matched", true, true, 1, 1, false),
		Entry("nothing matched, one word left (no retry)", false, false, 3, 3, false),
		Entry("something matched, no retry", false, true, 0, 0, false),
	)
})
