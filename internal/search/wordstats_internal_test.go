package search

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("A cached word frequency", func() {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	DescribeTable("stands in for a count only while fresh, and only for a word some record held",
		func(df int64, age time.Duration, reused bool) {
			e := cachedFreq{df: df, records: 100, fetched: now.Add(-age)}
			Expect(e.reusable(now, DefaultWordStatsTTL)).To(Equal(reused))
		},
		Entry("a word records hold, counted a second ago", int64(3), time.Second, true),
		Entry("a word records hold, counted a minute ago", int64(3), DefaultWordStatsTTL, false),
		// Reusing it would ignore the word for a minute, hiding a record written since.
		Entry("a word no record held, counted a second ago", int64(0), time.Second, false),
	)
})
