package apiserver_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/catalog"
)

// Specs of the audit of issue 15: inputs found by trying the API as an attacker after the
// first round of fixes.

// hugeSynonyms are settings the CRD's item limits allow that an index cannot store:
// about 2 MB of synonyms, beyond what etcd takes in one object.
func hugeSynonyms() string {
	groups := make([]string, 1000)
	for g := range groups {
		terms := make([]string, 20)
		for t := range terms {
			terms[t] = fmt.Sprintf(`"%s%d_%d"`, strings.Repeat("s", 90), g, t)
		}
		groups[g] = `{"terms": [` + strings.Join(terms, ",") + `]}`
	}
	return `{"synonyms": [` + strings.Join(groups, ",") + `]}`
}

var _ = Describe("Settings an index cannot apply (issue 15 audit)", func() {
	var ci catalogIndex
	BeforeEach(func() { ci = newCatalogIndex() })

	expectUnchanged := func(before response) {
		GinkgoHelper()
		Expect(call(0, "GET", ci.base+"/config", ci.writeKey, nil).body).To(MatchJSON(before.body))
	}

	It("refuses settings larger than an index can store with 400, not a 5xx", func() {
		before := call(0, "GET", ci.base+"/config", ci.writeKey, nil)
		expectRefused(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(hugeSynonyms())), http.StatusBadRequest,
			"invalid settings: they take")
		expectUnchanged(before)
	})

	DescribeTable("refuses a synonym term the analyzer would drop, which no index can be built with",
		func(term string) {
			before := call(0, "GET", ci.base+"/config", ci.writeKey, nil)
			body := fmt.Sprintf(`{"synonyms": [{"terms": ["tv", %q]}]}`, term)
			expectRefused(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(body)), http.StatusBadRequest,
				"synonyms[0].terms[1]: "+fmt.Sprintf("%q", term)+" holds no letter or digit")
			expectUnchanged(before)
		},
		Entry("punctuation", "!!!"),
		Entry("a space", " "),
		Entry("symbols", "€ & %"),
	)

	DescribeTable("refuses learning settings out of range, and _popularity where it cannot rank (issue 24)",
		func(body, want string) {
			before := call(0, "GET", ci.base+"/config", ci.writeKey, nil)
			expectRefused(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(body)), http.StatusBadRequest, want)
			expectUnchanged(before)
		},
		Entry("a half-life of a negative number of days", `{"eventRanking": {"enabled": true, "halfLifeDays": -1}}`, "eventRanking.halfLifeDays"),
		Entry("a half-life over a year", `{"eventRanking": {"enabled": true, "halfLifeDays": 366}}`, "eventRanking.halfLifeDays"),
		Entry("a negative weight", `{"eventRanking": {"weights": {"click": -2}}}`, "eventRanking.weights.click"),
		Entry("an unknown weight", `{"eventRanking": {"weights": {"share": 2}}}`, "share"),
		Entry("a strength over 100 percent", `{"reRanking": {"enabled": true, "strength": 101}}`,
			`field "reRanking.strength": must be an integer from 1 to 100, not 101`),
		Entry("a strength that is not a whole percent", `{"reRanking": {"enabled": true, "strength": 0.5}}`,
			`field "reRanking.strength": must be an integer from 1 to 100, not 0.5`),
		Entry("a negative minimum of searches", `{"reRanking": {"minSearches": -5}}`, "reRanking.minSearches"),
		Entry("_popularity without eventRanking", `{"customRanking": [{"field": "_popularity"}]}`,
			`customRanking[0].field: "_popularity" needs eventRanking.enabled`),
		Entry("_popularity after another field", `{"eventRanking": {"enabled": true}, "customRanking": [{"field": "price"}, {"field": "_popularity"}]}`,
			`customRanking[1].field: "_popularity" must be the first customRanking field`),
	)

	DescribeTable("refuses a searchable field the records hold in another shape, whose rebuild could never finish",
		func(record, path, want string) {
			Expect(call(0, "POST", ci.base+"/records", ci.writeKey, []byte(`{"records": [`+record+`]}`)).status).To(Equal(http.StatusAccepted))
			before := call(0, "GET", ci.base+"/config", ci.writeKey, nil)
			body := fmt.Sprintf(`{"searchableFields": [{"path": "name"}, {"path": %q}]}`, path)
			expectRefused(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(body)), http.StatusBadRequest, "searchableFields[1].path: "+want)
			expectUnchanged(before)
			Expect(rebuildStatus(ci)).To(BeNil())
		},
		Entry("an object", `{"objectID": "a", "specs": {"color": "red"}}`, "specs",
			`"specs" holds objects in this index (specs.color); a searchable field holds text`),
		Entry("a field under a value", `{"objectID": "a", "label": "red"}`, "label.short",
			`"label" holds values in this index, not objects`),
	)
})

var _ = Describe("A rebuild over fields mapped by their first value (issue 15, item 7)", func() {
	It("completes after a field took a word and then a number", func() {
		ci := newCatalogIndex()
		// The copy reads records in objectID order: it meets 5 first, the live index "abc".
		for _, r := range []string{`{"objectID": "z1", "m": "abc"}`, `{"objectID": "a1", "m": 5}`} {
			Expect(call(0, "POST", ci.base+"/records", ci.writeKey, []byte(`{"records": [`+r+`]}`)).status).To(Equal(http.StatusAccepted))
		}
		r := call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(`{"synonyms": [{"terms": ["tv", "television"]}]}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		Eventually(func(g Gomega) {
			st := rebuildStatus(ci)
			g.Expect(st).NotTo(BeNil())
			g.Expect(st.Generation).To(BeNumerically(">", 1))
			g.Expect(st.State).To(Equal(searchv1alpha1.RebuildSucceeded), "error: %s", st.Error)
		}).Should(Succeed())
		Expect(searchCount(ci)).To(BeNumerically("==", 2))
	})
})

var _ = Describe("Identifiers in the path (issue 15 audit)", func() {
	DescribeTable("refuses an objectID that is not valid UTF-8 with 400, and writes nothing",
		func(method, suffix string, key func(catalogIndex) string) {
			ci := newCatalogIndex()
			expectRefused(call(0, method, ci.base+suffix, key(ci), nil), http.StatusBadRequest, "objectID must be valid UTF-8")
			Expect(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt().AcceptedRevision).To(BeZero())
		},
		Entry("GET /records", "GET", "/records/a%FF", func(ci catalogIndex) string { return ci.writeKey }),
		Entry("DELETE /records", "DELETE", "/records/a%FF", func(ci catalogIndex) string { return ci.writeKey }),
		Entry("Bought together", "GET", "/lists/together/a%FF", func(ci catalogIndex) string { return ci.searchKey }),
		Entry("Similar", "GET", "/lists/similar/a%FF", func(ci catalogIndex) string { return ci.searchKey }),
		Entry("Goes with", "GET", "/lists/goesWith/a%FF", func(ci catalogIndex) string { return ci.searchKey }),
	)

	It("refuses it on the public Bought together and recommendation lists too", func() {
		for _, list := range []string{"together", "similar", "goesWith"} {
			rec := send(server, http.MethodGet, "/api/public/indexes/pub-acme-catalog/lists/"+list+"/a%FF", "", "",
				map[string]string{"Origin": allowedOrigin, "User-Agent": "hardening-spec"})
			Expect(rec.Code).To(Equal(http.StatusBadRequest), rec.Body.String())
			Expect(rec.Body.String()).To(ContainSubstring("objectID must be valid UTF-8"))
		}
	})
})

var _ = Describe("Unauthenticated bodies (issue 15, item 6)", func() {
	It("answers an unauthenticated request that declares a body larger than the endpoint takes with 413, without waiting for it", func() {
		for _, path := range []string{"POST " + publicPath, "POST /api/public/indexes/pub-acme-catalog/events",
			"GET /api/public/indexes/pub-acme-catalog/lists/together/p1", "GET /dashboard/api/key", "GET /healthz", "POST /no/such/path"} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(replicas[0], "http://"))
			Expect(err).NotTo(HaveOccurred())
			_, err = fmt.Fprintf(conn, "%s HTTP/1.1\r\nHost: x\r\nOrigin: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{",
				path, allowedOrigin, 100<<20)
			Expect(err).NotTo(HaveOccurred())
			Expect(conn.SetReadDeadline(time.Now().Add(10 * time.Second))).To(Succeed())
			status := make([]byte, 12)
			_, err = io.ReadFull(conn, status)
			conn.Close()
			Expect(err).NotTo(HaveOccurred(), "%s: no answer before the body arrived", path)
			Expect(string(status)).To(Equal("HTTP/1.1 413"), path)
		}
	})
})

var _ = Describe("Records the backend would refuse (issue 15 audit)", func() {
	DescribeTable("are refused with 400 in the contract's words before anything is written, taking no revision",
		func(record, want string) {
			ci := newCatalogIndex()
			r := call(0, "POST", ci.base+"/records", ci.writeKey, []byte(`{"records": [`+record+`]}`))
			expectRefused(r, http.StatusBadRequest, want)
			Expect(string(r.body)).NotTo(ContainSubstring("exception"))
			Expect(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt().AcceptedRevision).To(BeZero())
		},
		Entry("an empty field name", `{"objectID": "r", "": 1}`, "records[0]: field names may not be empty"),
		Entry("a name ending with a dot", `{"objectID": "r", "a.": 1}`, `records[0]: field "a.": a field name may not start or end with '.' nor hold '..'`),
		Entry("a metadata field", `{"objectID": "r", "_id": "x"}`, `records[0]: field "_id" is reserved for the search backend's metadata`),
		Entry("objects nested past the depth limit", `{"objectID": "r", "d": `+strings.Repeat(`{"a": `, 25)+"1"+strings.Repeat("}", 25)+`}`,
			"objects nest at most 20 levels deep (index.mapping.depth.limit)"),
		Entry("an integer no long holds", `{"objectID": "r", "n": 92233720368547758070}`, `records[0]: field "n": 92233720368547758070 cannot be indexed as long: out of range`),
		Entry("a long written with an exponent beyond it", `{"objectID": "r", "n": [1, 1e19]}`, `records[0]: field "n": 1e19 cannot be indexed as long: out of range`),
		Entry("a number no float holds", `{"objectID": "r", "f": 1e308}`, `records[0]: field "f": 1e308 cannot be indexed as float: out of range`),
	)
})

var _ = Describe("Settings naming a field that holds objects (issue 15 audit)", func() {
	It("never make a search fail: such a field is left out of sorts and counts no facet values", func() {
		ci := newCatalogIndex()
		Expect(call(0, "POST", ci.base+"/records", ci.writeKey, []byte(`{"records": [{"objectID": "a", "name": "red shoe", "extra": {}, "price": 5}]}`)).status).To(Equal(http.StatusAccepted))
		r := call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(`{"searchableFields": [{"path": "name"}], "facetFields": ["extra"],
			"sortableFields": ["extra", "price"], "customRanking": [{"field": "extra"}, {"field": "price"}]}`))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		// The replica learns the settings from the SearchIndex it watches, a moment later.
		for _, body := range []string{`{}`, `{"q": "shoe", "facets": ["extra"], "sort": [{"field": "extra"}]}`} {
			Eventually(func(g Gomega) {
				r := call(0, "POST", ci.base+"/search", ci.searchKey, []byte(body))
				g.Expect(r.status).To(Equal(http.StatusOK), "%s: %s", body, r.body)
				g.Expect(string(r.body)).To(ContainSubstring(`"total":1`))
			}).Should(Succeed())
		}
	})
})

var _ = Describe("acceptedRevision on refused writes (issue 15, as docs/openapi.yaml decides)", func() {
	It("stays for a write refused before the index, and moves for one that loses its race (409), which changes nothing", func() {
		ci := newCatalogIndex()
		write := func(expected int64) response {
			return call(0, "POST", ci.base+"/record-writes", ci.writeKey, map[string]any{
				"operation": "upsert", "objectID": "a", "record": map[string]any{"objectID": "a"}, "expectedVersion": expected})
		}
		indexing := func() catalog.Receipt { return call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).receipt() }

		Expect(write(-1).status).To(Equal(http.StatusBadRequest))
		Expect(indexing().AcceptedRevision).To(BeZero(), "a 400 found by the API server takes no revision")

		created := write(0)
		Expect(created.status).To(Equal(http.StatusAccepted))
		Expect(write(0).status).To(Equal(http.StatusConflict))
		Expect(indexing().AcceptedRevision).To(Equal(created.receipt().AcceptedRevision+1), "the lost race took a revision")
		Expect(call(0, "GET", ci.base+"/records/a", ci.writeKey, nil).body).To(MatchJSON(
			fmt.Sprintf(`{"objectID": "a", "version": %d, "record": {"objectID": "a"}}`, created.receipt().AcceptedRevision)), "and changed nothing")
	})
})
