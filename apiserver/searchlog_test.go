package apiserver_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchlog"
)

// loggedSearches decodes the search log of ci's index.
func loggedSearches(ci catalogIndex) []searchlog.Record {
	return decodeDocs[searchlog.Record](rawDocs(ci.names.SearchesPattern()))
}

var _ = Describe("The search log (issue 24)", func() {
	It("records every answered search, keyed, public and in multi-searches, and no facet value search", func() {
		name := fmt.Sprintf("searchlog-%d", GinkgoParallelProcess())
		policy := &searchv1alpha1.PublicSearchPolicy{AllowedFilters: []searchv1alpha1.FieldPath{"brand"}, AllowedFacets: []searchv1alpha1.FieldPath{"brand"}}
		ci := rankedIndexWith(name, apparelSettings, []searchv1alpha1.Origin{apparelOrigin}, policy, apparelRecords...)
		Eventually(func() int64 { return searchCount(ci) }).Should(BeEquivalentTo(len(apparelRecords)))
		public := "/api/public/indexes/pub-shop-" + name
		origin := map[string]string{"Origin": apparelOrigin}

		Expect(post(ci.base+"/search", ci.searchKey, `{"q": "Cotton  TEE", "facets": ["brand"]}`).Code).To(Equal(http.StatusOK))
		Expect(send(server, http.MethodPost, public+"/search", "", `{"q": "socks", "filters": {"field": "brand", "eq": "acme"}}`, origin).Code).
			To(Equal(http.StatusOK))
		Expect(call(0, http.MethodPost, "/api/teams/shop/multi-search", ci.searchKey, queries(
			`{"index": "`+name+`", "q": "nothing like it"}`, `{"index": "`+name+`", "limit": "x"}`)).status).To(Equal(http.StatusOK))
		Expect(send(server, http.MethodPost, "/api/public/multi-search", "",
			`{"queries": [{"publicId": "pub-shop-`+name+`", "q": "Hoodie", "facetFilters": {"brand": ["globex"]}}]}`, origin).Code).
			To(Equal(http.StatusOK))
		Expect(post(ci.base+"/facets/brand/search", ci.searchKey, `{"facetQuery": "ac"}`).Code).To(Equal(http.StatusOK))
		Expect(post(ci.base+"/search", ci.searchKey, `{"q": "tee", "limit": "x"}`).Code).To(Equal(http.StatusBadRequest))

		// Hits is the answer's total: with the catalog's distinct groups, one tee group.
		day := eventsNow().UTC().Format(searchlog.DayLayout)
		Eventually(func() []searchlog.Record { return loggedSearches(ci) }).Should(ConsistOf(
			searchlog.Record{Day: day, Query: "cotton tee", Hits: 1, Faceted: true},
			searchlog.Record{Day: day, Query: "socks", Hits: 1, Filtered: true, Public: true},
			searchlog.Record{Day: day, Query: "nothing like it", Hits: 0},
			searchlog.Record{Day: day, Query: "hoodie", Hits: 1, Filtered: true, Public: true},
		))
		Consistently(func() []searchlog.Record { return loggedSearches(ci) }, "300ms").Should(HaveLen(4))
	})

	It("answers searches whatever becomes of the log: a full queue and an unreachable backend only drop records", func() {
		a := apparelIndex()
		down, err := es.New("http://127.0.0.1:1")
		Expect(err).NotTo(HaveOccurred())
		// Never run, the recorder's queue of one is full after the first search.
		stuck := searchlog.New(down, searchlog.Config{Buffer: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		s := apiserver.New(apiserver.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Search: searchSvc, SearchLog: stuck}, registry)
		s.SetReady(true)
		for range 3 {
			Expect(send(s, http.MethodPost, a.ci.base+"/search", a.ci.searchKey, `{"q": "tee"}`, nil).Code).To(Equal(http.StatusOK))
		}
		metrics := send(s, http.MethodGet, "/metrics", "", "", nil).Body.String()
		Expect(metrics).To(ContainSubstring(`aisle_searchlog_dropped_total{reason="full"} 2`))
	})
})
