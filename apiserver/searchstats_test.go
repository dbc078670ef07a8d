package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
)

var _ = Describe("The Searches section of GET /events/stats (issue 24)", func() {
	It("tells searches per day, top searches, those without results or clicks, click-through rates and the mean click position", func() {
		name := fmt.Sprintf("searchstats-%d", GinkgoParallelProcess())
		ci := rankedIndexWith(name, apparelSettings, nil, nil, apparelRecords...)
		issueFor("ev-"+name, "shop", []searchv1alpha1.Scope{"events"}, []string{name}, nil, nil)
		Eventually(func() int64 { return searchCount(ci) }).Should(BeEquivalentTo(len(apparelRecords)))

		for _, q := range []string{"tee", "Tee", "TEE", "cotton", "cotton", "zzz", "zzz", ""} {
			Expect(post(ci.base+"/search", ci.searchKey, `{"q": "`+q+`"}`).Code).To(Equal(http.StatusOK))
		}
		click := func(pos int) string {
			return fmt.Sprintf(`{"type": "click", "objectID": "tee-red", "position": %d, "query": "Tee"}`, pos)
		}
		Eventually(func() int {
			return post(ci.base+"/events", keys["ev-"+name], batch(click(2), click(4))).Code
		}).Should(Equal(http.StatusAccepted))
		Eventually(func() []searchlog.Record { return loggedSearches(ci) }).Should(HaveLen(8))
		Expect(rawDocs(ci.names.EventsPattern())).To(HaveLen(2))

		rec := get(ci.base+"/events/stats", ci.searchKey)
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		var body struct {
			events.Stats
			Searches searchlog.Stats `json:"searches"`
		}
		Expect(json.Unmarshal(rec.Body.Bytes(), &body)).To(Succeed())
		s := body.Searches
		Expect(s.Searches).To(BeEquivalentTo(8))
		Expect(s.NoResults).To(BeEquivalentTo(2))
		Expect(s.Clicks).To(BeEquivalentTo(2))
		Expect(s.ClickThroughRate).To(BeNumerically("~", 2.0/7, 1e-9), "clicks per search with a query")
		Expect(s.AverageClickPosition).To(BeNumerically("~", 3, 1e-9))
		Expect(s.TopQueries).To(Equal([]searchlog.QueryStats{
			{Query: "tee", Searches: 3, Clicks: 2, ClickThroughRate: 2.0 / 3},
			{Query: "cotton", Searches: 2}, {Query: "zzz", Searches: 2},
		}))
		Expect(s.NoResultQueries).To(Equal([]searchlog.QueryCount{{Query: "zzz", Searches: 2}}))
		Expect(s.NoClickQueries).To(Equal([]searchlog.QueryCount{{Query: "cotton", Searches: 2}}))
		Expect(s.Daily).To(HaveLen(events.DefaultStatsDays))
		Expect(s.Daily[len(s.Daily)-1]).To(Equal(searchlog.DayCount{Date: body.To, Searches: 8, NoResults: 2}))
	})
})
