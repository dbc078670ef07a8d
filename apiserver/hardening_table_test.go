package apiserver_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/api/securedkey"
	"github.com/aislehq/aisle/internal/events"
)

// bodyEndpoint is an endpoint that takes a body: its path under the index prefix (or
// under the index's public prefix, for a browser endpoint), its body's shape and the key
// it needs (none for a browser endpoint).
type bodyEndpoint struct {
	method, path, shape string
	key                 func(catalogIndex) string
}

func writeKeyOf(ci catalogIndex) string  { return ci.writeKey }
func searchKeyOf(ci catalogIndex) string { return ci.searchKey }

// securedKeyOf is a secured key of the index's search key, with a filter and a hit cap
// (issue 22): its restrictions go on top of each bad body, which must still be refused.
func securedKeyOf(ci catalogIndex) string {
	return derive(ci.searchKey, securedkey.Restrictions{Filters: map[string]any{"field": "brand", "eq": "acme"}, MaxHits: 5})
}

var bodyEndpoints = []bodyEndpoint{
	{"POST", "/records", "records", writeKeyOf},
	{"PUT", "/records", "records", writeKeyOf},
	{"POST", "/staged-replacements/s1/batches/b1", "records", writeKeyOf},
	{"POST", "/staged-replacements/s1/commit", "commit", writeKeyOf},
	{"POST", "/record-writes", "conditional", writeKeyOf},
	{"POST", "/records/partial", "partial", writeKeyOf},
	{"POST", "/records/delete", "delete", writeKeyOf},
	{"POST", "/records/browse", "browse", writeKeyOf},
	{"PUT", "/config", "settings", writeKeyOf},
	{"PUT", "/public-access/policy", "policy", writeKeyOf},
	{"POST", "/search", "search", searchKeyOf},
	{"POST", "/search", "search", securedKeyOf},
	{"POST", "/events", "events", writeKeyOf},
	{"POST", "/past-orders", "orders", writeKeyOf},
	{"PUT", "/rules/r1", "rule", writeKeyOf},
	{"POST", "/rules", "rules", writeKeyOf},
	{"PUT", "/rules", "rules", writeKeyOf},
	{"POST", "/rules/preview-me/preview", "search", writeKeyOf},
	{"POST", "/search", "search", nil},
	{"POST", "/events", "events", nil},
	{"POST", "/facets/brand/search", "facetSearch", searchKeyOf},
	{"POST", "/facets/brand/search", "facetSearch", securedKeyOf},
	{"POST", "/facets/brand/search", "facetSearch", nil},
	{"POST", "/api/teams/shop/multi-search", "multiSearch", searchKeyOf},
	{"POST", "/api/teams/shop/multi-search", "multiSearch", securedKeyOf},
	{"POST", "/api/teams/shop/multi-search", "multiSearchQueries", searchKeyOf},
	{"POST", "/api/public/multi-search", "publicMultiSearch", nil},
	{"POST", "/api/public/multi-search", "publicMultiSearchQueries", nil},
}

// browser is what a page's requests carry: its allowed Origin and a browser's user agent
// (events of crawlers would be dropped whatever their body).
var browser = map[string]string{"Origin": "https://shop.example",
	"User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0"}

// send sends body to the endpoint of index ci. A path from /api/ on is the endpoint's
// whole path (a multi-search's), and {index} and {publicId} in the body name ci.
func (ep bodyEndpoint) send(ci catalogIndex, body string) response {
	GinkgoHelper()
	body = strings.NewReplacer("{index}", ci.name, "{publicId}", "pub-shop-"+ci.name).Replace(body)
	path := ep.path
	if !strings.HasPrefix(path, "/api/") {
		path = "/api/public/indexes/pub-shop-" + ci.name + ep.path
		if ep.key != nil {
			path = ci.base + ep.path
		}
	}
	if ep.key == nil {
		return callWith(0, ep.method, path, "", []byte(body), browser)
	}
	return callWith(0, ep.method, path, ep.key(ci), []byte(body), nil)
}

func callWith(i int, method, path, key string, body any, headers map[string]string) response {
	GinkgoHelper()
	r, err := callWithE(i, method, path, key, body, headers)
	Expect(err).NotTo(HaveOccurred())
	return r
}

// expectRefusedOrNoneAccepted checks a 4xx, or for an event endpoint (which refuses a bad
// event alone) a 202 that accepted nothing.
func expectRefusedOrNoneAccepted(ep bodyEndpoint, r response) {
	GinkgoHelper()
	if r.status == http.StatusOK && strings.HasSuffix(ep.path, "/multi-search") {
		expectFailedInPlace(ep, r)
		return
	}
	if r.status == http.StatusAccepted && (ep.shape == "events" || ep.shape == "orders") {
		var acc events.Accepted
		Expect(json.Unmarshal(r.body, &acc)).To(Succeed())
		Expect(acc.Accepted).To(BeZero(), "%s %s accepted: %s", ep.method, ep.path, r.body)
		return
	}
	Expect(r.status).To(And(BeNumerically(">=", 400), BeNumerically("<", 500)), "%s %s (public: %t): %s", ep.method, ep.path, ep.key == nil, r.body)
	var e struct {
		Error string `json:"error"`
	}
	Expect(json.Unmarshal(r.body, &e)).To(Succeed())
	Expect(e.Error).NotTo(BeEmpty())
}

// expectFailedInPlace checks a multi-search whose every query failed with a 4xx, in its
// place.
func expectFailedInPlace(ep bodyEndpoint, r response) {
	GinkgoHelper()
	var res struct {
		Results []struct {
			Error  string `json:"error"`
			Status int    `json:"status"`
		} `json:"results"`
	}
	Expect(json.Unmarshal(r.body, &res)).To(Succeed())
	Expect(res.Results).NotTo(BeEmpty())
	for _, q := range res.Results {
		Expect(q.Status).To(And(BeNumerically(">=", 400), BeNumerically("<", 500)), "%s %s (public: %t): %s", ep.method, ep.path, ep.key == nil, r.body)
		Expect(q.Error).NotTo(BeEmpty())
	}
}

// indexState is what a refused request must leave as it was.
type indexState struct {
	receipt, config, access, rules string
	stage                          [3]any
	records, events, orders        int
}

func stateOf(ci catalogIndex) indexState {
	GinkgoHelper()
	var st struct {
		State   string `json:"state"`
		Batches int    `json:"batches"`
		Records int64  `json:"records"`
	}
	Expect(json.Unmarshal(call(0, "POST", ci.base+"/staged-replacements/s1", ci.writeKey, nil).body, &st)).To(Succeed())
	return indexState{
		receipt: string(call(0, "GET", ci.base+"/indexing", ci.writeKey, nil).body),
		config:  string(call(0, "GET", ci.base+"/config", ci.writeKey, nil).body),
		access:  string(call(0, "GET", ci.base+"/public-access", ci.writeKey, nil).body),
		rules:   string(call(0, "GET", ci.base+"/rules", ci.writeKey, nil).body),
		stage:   [3]any{st.State, st.Batches, st.Records},
		records: int(searchCount(ci)),
		events:  len(rawDocs(ci.names.EventsPattern())),
		orders:  len(rawDocs(ci.names.Orders())),
	}
}

var _ = Describe("Every endpoint that takes a body (issue 15)", Ordered, ContinueOnFailure, func() {
	var ci catalogIndex
	var before indexState
	BeforeAll(func() {
		ci = newCatalogIndex()
		Expect(call(0, "PUT", ci.base+"/config", ci.writeKey, []byte(`{"searchableFields": [{"path": "name"}],
			"filterableFields": ["brand"], "facetFields": ["brand"], "sortableFields": ["price"]}`)).status).To(Equal(http.StatusOK))
		Expect(call(0, "PUT", ci.base+"/public-access/policy", ci.writeKey, []byte(`{"policy": {"retrievableFields": ["name"],
			"allowedFacets": ["brand"], "allowedFilters": ["brand"], "allowedSorts": ["price"]}}`)).status).To(Equal(http.StatusOK))
		Expect(call(0, "POST", ci.base+"/staged-replacements/s1", ci.writeKey, nil).status).To(Equal(http.StatusCreated))
		// The saved rule a preview of a search body without a draft previews.
		Expect(call(0, "PUT", ci.base+"/rules/preview-me", ci.writeKey, []byte(`{"consequence": {"hide": ["x"]}}`)).status).To(Equal(http.StatusOK))
		Eventually(func() int {
			return callWith(0, "POST", "/api/public/indexes/pub-shop-"+ci.name+"/search", "", []byte(bodyShapes["search"].render("", "")), browser).status
		}).Should(Equal(http.StatusOK), "the valid search body is answered, so refusals below are the wrong field's")
		before = stateOf(ci)
	})

	DescribeTable("answers a bad body with a 4xx naming the problem, and writes nothing (no record, revision, setting, policy, batch, event, order or rule)",
		func(shape, body string) {
			for _, ep := range bodyEndpoints {
				if shape == "" || ep.shape == shape {
					expectRefusedOrNoneAccepted(ep, ep.send(ci, body))
				}
			}
			Expect(stateOf(ci)).To(Equal(before))
		},
		append(wholeBodyEntries(), fieldEntries()...),
	)

	It("takes the valid bodies the table starts from, so each refusal above is the wrong field's", func() {
		for _, shape := range []string{"search", "browse", "events", "facetSearch", "multiSearch", "publicMultiSearch", "multiSearchQueries", "publicMultiSearchQueries", "settings", "rule", "rules"} {
			for _, ep := range bodyEndpoints {
				if ep.shape == shape {
					r := ep.send(ci, bodyShapes[shape].render("", ""))
					Expect(r.status).To(BeNumerically("<", 300), "%s %s: %s", ep.method, ep.path, r.body)
					if strings.HasSuffix(ep.path, "/multi-search") {
						Expect(string(r.body)).NotTo(ContainSubstring(`"error"`), "%s %s: every query answered", ep.method, ep.path)
					}
				}
			}
		}
		for name, shape := range bodyShapes {
			Expect(json.Valid([]byte(shape.render("", "")))).To(BeTrue(), "the %s body renders to JSON", name)
		}
	})
})

// pathIDs are identifiers for paths: some no identifier may be, the others only an
// objectID may be (see validObjectIDs).
var pathIDs = map[string]string{
	"empty": "", "over-long objectID": strings.Repeat("x", 513), "65 characters": strings.Repeat("k", 65),
	"invalid UTF-8": "a%FF", "a slash": "a%2Fb", "a space": "a%20b", "a dot-dot": "..", "invalid percent-encoding": "a%G1",
}

// validObjectIDs are the pathIDs an objectID may be: a read answers them as absent
// records, and a delete of one would be a write.
var validObjectIDs = []string{"65 characters", "a slash", "a space", "a dot-dot"}

var _ = Describe("Every endpoint with an identifier in its path (issue 15)", Ordered, ContinueOnFailure, func() {
	var ci catalogIndex
	var before indexState
	BeforeAll(func() {
		ci = newCatalogIndex()
		Expect(call(0, "POST", ci.base+"/staged-replacements/s1", ci.writeKey, nil).status).To(Equal(http.StatusCreated))
		before = stateOf(ci)
	})

	DescribeTable("answers a bad identifier with a 4xx, one an objectID may be as an absent record, and writes nothing",
		func(method, pathTemplate, body string, keyOf func(catalogIndex) string, objectID bool) {
			for _, name := range slices.Sorted(maps.Keys(pathIDs)) {
				valid := objectID && slices.Contains(validObjectIDs, name)
				if valid && method == http.MethodDelete {
					continue
				}
				path := strings.ReplaceAll(pathTemplate, "{id}", pathIDs[name])
				headers, key := browser, ""
				if keyOf != nil {
					headers, key, path = nil, keyOf(ci), ci.base+path
				} else {
					path = "/api/public/indexes/pub-shop-" + ci.name + path
				}
				r := rawCall(method, path, key, body, headers)
				if valid {
					Expect(r.status).To(Equal(http.StatusOK), "%s %s (%s): %s", method, path, name, r.body)
					continue
				}
				Expect(r.status).To(And(BeNumerically(">=", 400), BeNumerically("<", 500)), "%s %s (%s): %s", method, path, name, r.body)
			}
			Expect(stateOf(ci)).To(Equal(before))
		},
		Entry("GET /records/{objectID}", "GET", "/records/{id}", "", writeKeyOf, true),
		Entry("DELETE /records/{objectID}", "DELETE", "/records/{id}", "", writeKeyOf, true),
		Entry("GET /lists/together/{objectID}", "GET", "/lists/together/{id}", "", searchKeyOf, true),
		Entry("the public GET /lists/together/{objectID}", "GET", "/lists/together/{id}", "", nil, true),
		Entry("GET /lists/similar/{objectID}", "GET", "/lists/similar/{id}", "", searchKeyOf, true),
		Entry("the public GET /lists/similar/{objectID}", "GET", "/lists/similar/{id}", "", nil, true),
		Entry("GET /lists/goesWith/{objectID}", "GET", "/lists/goesWith/{id}", "", searchKeyOf, true),
		Entry("the public GET /lists/goesWith/{objectID}", "GET", "/lists/goesWith/{id}", "", nil, true),
		Entry("POST /staged-replacements/{stageId}", "POST", "/staged-replacements/{id}", "", writeKeyOf, false),
		Entry("DELETE /staged-replacements/{stageId}", "DELETE", "/staged-replacements/{id}", "", writeKeyOf, false),
		Entry("a batch's stageId", "POST", "/staged-replacements/{id}/batches/b1", `{"records": [{"objectID": "r1"}]}`, writeKeyOf, false),
		Entry("a batch's batchId", "POST", "/staged-replacements/s1/batches/{id}", `{"records": [{"objectID": "r1"}]}`, writeKeyOf, false),
		Entry("a commit's stageId", "POST", "/staged-replacements/{id}/commit", `{"expectedBatches": 0, "expectedRecords": 0}`, writeKeyOf, false),
		Entry("a facet value search's field", "POST", "/facets/{id}/search", `{}`, searchKeyOf, false),
		Entry("the public facet value search's field", "POST", "/facets/{id}/search", `{}`, nil, false),
		Entry("GET /rules/{ruleId}", "GET", "/rules/{id}", "", searchKeyOf, false),
		Entry("PUT /rules/{ruleId}", "PUT", "/rules/{id}", `{"consequence": {"hide": ["x"]}}`, writeKeyOf, false),
		Entry("DELETE /rules/{ruleId}", "DELETE", "/rules/{id}", "", writeKeyOf, false),
		Entry("POST /rules/{ruleId}/preview", "POST", "/rules/{id}/preview", `{"q": "", "rule": {"consequence": {"hide": ["x"]}}}`, writeKeyOf, false),
	)
})

// rawCall sends a request whose path goes on the wire as written (Go's URL parser would
// refuse a bad percent-encoding) and checks the answer against the OpenAPI document.
func rawCall(method, path, key, body string, headers map[string]string) response {
	GinkgoHelper()
	u, err := url.Parse(replicas[0])
	Expect(err).NotTo(HaveOccurred())
	u.Opaque = path
	req, err := http.NewRequestWithContext(ctx, method, replicas[0], strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.URL = u
	setHeaders(req, body != "", key, headers)
	status, data := sendRaw(req)
	Expect(openapi.Validate(method, path, status, "application/json", data)).To(Succeed())
	return response{status: status, body: data}
}

var _ = Describe("Every endpoint with query parameters (issue 15)", func() {
	DescribeTable("answers any value with a 200 or a 400 naming the parameter",
		func(query string) {
			ci := catalogIndex{name: "catalog", base: "/api/teams/acme/indexes/catalog", writeKey: keys["catalog"], searchKey: keys["catalog"]}
			for _, path := range []string{ci.base + "/events/stats", ci.base + "/lists/together/p1", "/api/public/indexes/pub-acme-catalog/lists/together/p1",
				ci.base + "/lists/similar/p1", ci.base + "/lists/goesWith/p1", ci.base + "/lists/trending",
				"/api/public/indexes/pub-acme-catalog/lists/similar/p1", "/api/public/indexes/pub-acme-catalog/lists/trending", ci.base + "/rules",
				ci.base + "/suggestions", "/api/public/indexes/pub-acme-catalog/suggestions"} {
				r := rawCall("GET", path+"?"+query, ci.searchKey, "", map[string]string{"Origin": allowedOrigin, "User-Agent": "query-spec"})
				Expect(r.status).To(Or(Equal(http.StatusOK), Equal(http.StatusBadRequest)), "%s?%s: %s", path, query, r.body)
				if r.status == http.StatusBadRequest {
					Expect(string(r.body)).To(ContainSubstring("invalid parameter"))
				}
			}
		},
		Entry("the first and the last days there are", "from=0000-01-01&to=0000-12-31"),
		Entry("the last days there are", "from=9999-12-01&to=9999-12-31"),
		Entry("a day that does not exist", "from=2026-02-30"),
		Entry("a time", "from=2026-01-01T00:00:00Z"),
		Entry("invalid UTF-8", "from=%FF&to=%FF&limit=%FF"),
		Entry("invalid percent-encoding", "from=%G1&limit=%G1"),
		Entry("a parameter twice", "from=2026-01-01&from=2026-01-02&limit=1&limit=2"),
		Entry("an overflowing limit", "limit=99999999999999999999"),
		Entry("a negative limit", "limit=-1"),
		Entry("a signed limit", "limit=+5"),
		Entry("an empty limit", "limit="),
		Entry("a huge limit within the URL limit", "limit="+strings.Repeat("9", 8000)),
		Entry("filters that are not JSON", "filters=%7B"),
		Entry("filters of invalid UTF-8", "filters=%7B%22field%22%3A%22%FF%22%7D"),
		Entry("filters nested too deep", "filters="+strings.Repeat("%7B%22not%22%3A", 10)+"%7B%22field%22%3A%22brand%22%2C%22eq%22%3A1%7D"+strings.Repeat("%7D", 10)),
		Entry("filters that are an array", "filters=%5B%5D"),
		Entry("filters on no field", "filters=%7B%7D"),
		Entry("a field without value", "field=brand"),
		Entry("a value without field", "value=x"),
		Entry("a field that is no facet", "field=objectID&value=x"),
		Entry("a value of invalid UTF-8", "field=brand&value=%FF"),
		Entry("a value too long", "field=brand&value="+strings.Repeat("v", 600)),
		Entry("a query of invalid UTF-8", "query=%FF"),
		Entry("a query too long", "query="+strings.Repeat("q", 600)),
		Entry("an offset past the window", "offset=9999&limit=2"),
		Entry("a negative offset", "offset=-1"),
		Entry("an overflowing offset", "offset=99999999999999999999"),
		Entry("a typed query of invalid UTF-8", "q=%FF"),
		Entry("a typed query too long", "q="+strings.Repeat("q", 600)),
		Entry("categories that are no boolean", "categories=yes"),
		Entry("categories twice", "categories=true&categories=1"),
		Entry("a limit above the suggestions'", "limit=21&categories=true"),
	)
})
