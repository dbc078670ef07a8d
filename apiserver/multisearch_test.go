package apiserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
)

// multiResult is one result of a multi-search: a search answer, or an error in its place.
type multiResult struct {
	facetedResult
	Error  string `json:"error"`
	Status int    `json:"status"`
}

func multiResults(r response) []multiResult {
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var res struct {
		Results []multiResult `json:"results"`
	}
	Expect(json.Unmarshal(r.body, &res)).To(Succeed())
	return res.Results
}

// queries renders queries as a multi-search body.
func queries(qs ...string) []byte {
	return []byte(`{"queries": [` + strings.Join(qs, ",") + `]}`)
}

var _ = Describe("Multi-search (issue 22)", func() {
	It("answers each query in its place, a failed one with its error and status without failing the others", func() {
		a := apparelIndex()
		idx := func(name, rest string) string { return `{"index": "` + name + `"` + rest + `}` }
		r := call(0, http.MethodPost, "/api/teams/shop/multi-search", a.ci.searchKey, queries(
			idx(a.ci.name, `, "q": "tee", "distinct": false`),
			idx(a.ci.name, `, "facets": ["name"]`),
			idx(a.staff, ``),
			idx("no-such-index", ``),
			idx(a.ci.name, `, "limit": "x"`),
			`{"q": "tee"}`,
			idx(a.ci.name, `, "facets": ["brand"], "facetFilters": {"brand": ["globex"]}, "variantsLimit": 1`),
		))
		results := multiResults(r)
		Expect(results).To(HaveLen(7))
		Expect(results[0].ids()).To(ConsistOf("tee-red", "tee-blue", "tee-green"))
		Expect(results[1].Status).To(Equal(http.StatusBadRequest))
		Expect(results[1].Error).To(ContainSubstring(`facets[0]: "name" is not a facet field`))
		Expect(results[2].Status).To(Equal(http.StatusForbidden), "the key does not grant that index")
		Expect(results[2].Error).To(Equal("API key does not grant access to this index"))
		Expect(results[3].Status).To(Equal(http.StatusNotFound))
		Expect(results[4].Status).To(Equal(http.StatusBadRequest))
		Expect(results[4].Error).To(ContainSubstring(`"limit"`))
		Expect(results[5]).To(Equal(multiResult{Error: "index is required: name the index each query searches", Status: http.StatusBadRequest}))
		Expect(results[6].ids()).To(Equal([]string{"hood-grey", "sock-2"}))
		Expect(results[6].variantsOf("hood-grey")).To(Equal([]string{"hood-red"}))
	})

	It("checks the key against the workspace before the body", func() {
		a := apparelIndex()
		Expect(call(0, http.MethodPost, "/api/teams/acme/multi-search", a.ci.searchKey, queries(`{"index": "catalog"}`)).status).
			To(Equal(http.StatusForbidden), "a key of another workspace")
		Expect(call(0, http.MethodPost, "/api/teams/shop/multi-search", a.ci.writeKey, queries(`{"index": "x"}`)).status).
			To(Equal(http.StatusForbidden), "a key without search")
		Expect(call(0, http.MethodPost, "/api/teams/shop/multi-search", "", queries(`{"index": "x"}`)).status).
			To(Equal(http.StatusUnauthorized))
	})

	DescribeTable("refuses a body without 1 to 50 queries whole",
		func(body, message string) {
			a := apparelIndex()
			expectRefused(call(0, http.MethodPost, "/api/teams/shop/multi-search", a.ci.searchKey, []byte(body)), http.StatusBadRequest, message)
		},
		Entry("no queries", `{"queries": []}`, "queries: needs 1 to 50 queries"),
		Entry("no queries member", `{}`, "queries: needs 1 to 50 queries"),
		Entry("51 queries", string(queries(strings.Split(strings.Repeat(`{"index": "x"};`, 51), ";")[:51]...)), "queries: needs 1 to 50 queries"),
		Entry("queries that are not a list", `{"queries": {}}`, `field "queries" must be`),
	)

	It("counts each query as a search of the plan, refusing those beyond it in their place with 402", func() {
		ws, key := tallyWorkspace("tally", 2)
		r := call(0, http.MethodPost, "/api/teams/"+ws+"/multi-search", key, queries(`{"index": "items"}`, `{"index": "items"}`, `{"index": "items"}`))
		results := multiResults(r)
		Expect(results[0].Status).To(BeZero())
		Expect(results[1].Status).To(BeZero())
		Expect(results[2]).To(Equal(multiResult{Error: "plan limit reached: the workspace has used its monthly searches", Status: http.StatusPaymentRequired}))
	})
})

var _ = Describe("Public multi-search (issue 22)", func() {
	multi := func(s *apiserver.Server, origin string, body []byte) response {
		return browserCall(s, http.MethodPost, "/api/public/multi-search", body, map[string]string{"Origin": origin, "User-Agent": "multi-spec"})
	}

	It("answers each query under its index's policy, refusing in its place an index that does not allow the origin", func() {
		a := apparelIndex()
		r := multi(server, apparelOrigin, queries(
			`{"publicId": "`+a.publicID+`", "facets": ["brand"]}`,
			`{"publicId": "pub-acme-catalog"}`,
			`{"publicId": "`+a.publicID+`", "facets": ["color"]}`,
			`{"publicId": "pub-nope"}`,
		))
		Expect(r.header.Get("Access-Control-Allow-Origin")).To(Equal(apparelOrigin))
		results := multiResults(r)
		Expect(results[0].ids()).To(Equal([]string{"sock-1", "tee-red", "cap-red", "sock-2"}), "the forced filters keep garments under 50")
		Expect(results[1]).To(Equal(multiResult{Error: "origin not allowed: send an Origin header with one of the index's allowed origins", Status: http.StatusForbidden}))
		Expect(results[2].Status).To(Equal(http.StatusBadRequest))
		Expect(results[2].Error).To(ContainSubstring(`"color" is not allowed in public facets`))
		Expect(results[3].Status).To(Equal(http.StatusNotFound))
	})

	It("refuses an origin no index allows whole, without CORS headers", func() {
		r := multi(server, "https://nobody.test", queries(`{"publicId": "pub-acme-catalog"}`))
		Expect(r.status).To(Equal(http.StatusForbidden))
		Expect(r.header.Get("Access-Control-Allow-Origin")).To(BeEmpty())
	})

	It("answers the preflight of an origin some index allows", func() {
		apparelIndex()
		pre := func(origin string) response {
			return browserCall(server, http.MethodOptions, "/api/public/multi-search", nil, map[string]string{
				"Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
		}
		r := pre(apparelOrigin)
		Expect(r.status).To(Equal(http.StatusNoContent))
		Expect(r.header.Get("Access-Control-Allow-Origin")).To(Equal(apparelOrigin))
		Expect(r.header.Get("Access-Control-Allow-Methods")).To(ContainSubstring("POST"))
		r = pre("https://nobody.test")
		Expect(r.status).To(Equal(http.StatusForbidden))
		Expect(r.header.Get("Access-Control-Allow-Origin")).To(BeEmpty())
	})

	It("takes each query from the visitor's rate limits, answering 429 in place with Retry-After", func() {
		a := apparelIndex()
		now := time.Now()
		s := newServer(apiserver.PublicLimits{PerVisitor: 2, Clock: func() time.Time { return now }})
		q := `{"publicId": "` + a.publicID + `", "limit": 1}`
		r := multi(s, apparelOrigin, queries(q, q, q))
		results := multiResults(r)
		Expect(results[1].Status).To(BeZero())
		Expect(results[2].Status).To(Equal(http.StatusTooManyRequests))
		Expect(r.header.Get("Retry-After")).To(Equal("30"))
	})

	It("takes at most 10 queries", func() {
		a := apparelIndex()
		q := `{"publicId": "` + a.publicID + `"}`
		r := multi(server, apparelOrigin, queries(strings.Split(strings.Repeat(q+";", 11), ";")[:11]...))
		expectRefused(r, http.StatusBadRequest, "queries: needs 1 to 10 queries")
		Expect(r.header.Get("Access-Control-Allow-Origin")).To(Equal(apparelOrigin), "the page can read why")
	})
})

// browserCall sends a request through s's app, the answer checked against the OpenAPI
// document.
func browserCall(s *apiserver.Server, method, path string, body []byte, headers map[string]string) response {
	GinkgoHelper()
	rec := send(s, method, path, "", string(body), headers)
	return response{status: rec.Code, body: rec.Body.Bytes(), header: rec.Header()}
}
