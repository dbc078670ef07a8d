package searchlog_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
)

var _ = Describe("The Searches section", func() {
	It("is empty, every day listed, for an index nobody searched", func() {
		p, err := events.ParsePeriod("2026-11-01", "2026-11-03", time.Now())
		Expect(err).NotTo(HaveOccurred())
		s, err := searchlog.NewReader(esClient).ComputeStats(ctx, esnames.For("searchlog", "unsearched"), p)
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(searchlog.Stats{
			Daily:      []searchlog.DayCount{{Date: "2026-11-01"}, {Date: "2026-11-02"}, {Date: "2026-11-03"}},
			TopQueries: []searchlog.QueryStats{}, NoResultQueries: []searchlog.QueryCount{}, NoClickQueries: []searchlog.QueryCount{},
		}))
	})
})
