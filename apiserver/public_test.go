package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
)

const publicPath = "/api/public/indexes/pub-acme-catalog/search"

func publicSearch(s *apiserver.Server, origin, userAgent, body string) (int, http.Header, string) {
	headers := map[string]string{"User-Agent": userAgent}
	if origin != "" {
		headers["Origin"] = origin
	}
	rec := send(s, http.MethodPost, publicPath, "", body, headers)
	return rec.Code, rec.Header(), rec.Body.String()
}

var _ = Describe("Public search", func() {
	It("answers an allowed origin with CORS headers, under the policy", func() {
		code, h, body := publicSearch(server, allowedOrigin, "policy-spec", `{"limit": 50, "facets": ["brand"]}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(h.Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		Expect(h.Get("Vary")).To(ContainSubstring("Origin"))
		var res searchResult
		Expect(json.Unmarshal([]byte(body), &res)).To(Succeed())
		By("capping hits at maxHits and forcing inStock=true")
		Expect(res.ids()).To(Equal([]string{"p6", "p3", "p5"}))
		Expect(res.Total).To(BeEquivalentTo(5))
		By("returning only the retrievable fields")
		Expect(res.Hits[0].Record).To(Equal(map[string]any{"objectID": "p6", "name": "Red wool socks", "price": 9.0, "brand": "Acme"}))
		Expect(res.Facets["brand"]).To(ContainElement(map[string]any{"value": "Acme", "count": 2.0}))
	})

	It("applies allowed filters and sorts on top of the forced filters", func() {
		code, _, body := publicSearch(server, allowedOrigin, "policy-spec", `{"filters": {"field": "price", "range": {"gte": 20}}, "sort": [{"field": "price"}]}`)
		Expect(code).To(Equal(http.StatusOK), body)
		var res searchResult
		Expect(json.Unmarshal([]byte(body), &res)).To(Succeed())
		Expect(res.ids()).To(Equal([]string{"p5", "p1", "p4"}))
	})

	DescribeTable("refuses what the policy does not allow with 400",
		func(body, message string) {
			code, h, res := publicSearch(server, allowedOrigin, "policy-spec", body)
			Expect(code).To(Equal(http.StatusBadRequest))
			Expect(res).To(ContainSubstring(message))
			Expect(h.Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin), "the page can read why")
		},
		Entry("a facet", `{"facets": ["specs.color"]}`, `\"specs.color\" is not allowed in public facets`),
		Entry("a filter", `{"filters": {"field": "brand", "eq": "Acme"}}`, `\"brand\" is not allowed in public filters`),
		Entry("a sort", `{"sort": [{"field": "createdAt"}]}`, `\"createdAt\" is not allowed in public sorts`),
		Entry("a field", `{"fields": ["description"]}`, `\"description\" is not a retrievable field`),
		Entry("more than 50 hits", `{"limit": 51}`, "limit: must be between 1 and 50"),
	)

	DescribeTable("refuses an origin that is not exactly an allowed one with 403 and no CORS headers",
		func(origin string) {
			code, h, body := publicSearch(server, origin, "origin-spec", `{}`)
			Expect(code).To(Equal(http.StatusForbidden))
			Expect(body).To(MatchJSON(errorBody("origin not allowed: send an Origin header with one of the index's allowed origins")))
			Expect(h.Get("Access-Control-Allow-Origin")).To(BeEmpty())
		},
		Entry("no Origin", ""),
		Entry("another origin", "http://evil.test"),
		Entry("another port", "http://allowed.test:8080"),
		Entry("another scheme", "https://allowed.test"),
		Entry("a trailing slash", "http://allowed.test/"),
	)

	It("answers 404 for an unknown public ID", func() {
		rec := send(server, http.MethodPost, "/api/public/indexes/nope/search", "", `{}`, map[string]string{"Origin": allowedOrigin})
		Expect(rec.Code).To(Equal(http.StatusNotFound))
	})

	It("answers the preflight of an allowed origin per index", func() {
		rec := send(server, http.MethodOptions, publicPath, "", "", map[string]string{
			"Origin": allowedOrigin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
		Expect(rec.Code).To(Equal(http.StatusNoContent))
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		Expect(rec.Header().Get("Access-Control-Allow-Methods")).To(ContainSubstring("POST"))
		Expect(rec.Header().Get("Access-Control-Allow-Headers")).To(Equal("Content-Type"))
		Expect(rec.Header().Get("Access-Control-Max-Age")).To(Equal("600"))

		rec = send(server, http.MethodOptions, publicPath, "", "", map[string]string{"Origin": "http://evil.test", "Access-Control-Request-Method": "POST"})
		Expect(rec.Code).To(Equal(http.StatusForbidden))
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(BeEmpty())
	})

	It("limits a visitor to 240 requests a minute, with 429 and Retry-After", func() {
		// The clock stands still unless the spec moves it: how fast the requests go out
		// must not refill the bucket (4 tokens a second) under the spec's feet.
		now := time.Now()
		s := newServer(apiserver.PublicLimits{Clock: func() time.Time { return now }})
		for i := 0; i < 240; i++ {
			code, _, body := publicSearch(s, allowedOrigin, "visitor-spec", `{"limit": 1}`)
			Expect(code).To(Equal(http.StatusOK), "request %d: %s", i+1, body)
		}
		code, h, body := publicSearch(s, allowedOrigin, "visitor-spec", `{"limit": 1}`)
		Expect(code).To(Equal(http.StatusTooManyRequests), body)
		retry, err := strconv.Atoi(h.Get("Retry-After"))
		Expect(err).NotTo(HaveOccurred())
		Expect(retry).To(BeNumerically(">=", 1))
		Expect(h.Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		Expect(h.Get("Access-Control-Expose-Headers")).To(Equal("Retry-After"), "so that the page can read how long to wait")
		By("leaving other visitors alone")
		code, _, _ = publicSearch(s, allowedOrigin, "another-visitor", `{"limit": 1}`)
		Expect(code).To(Equal(http.StatusOK))
		By("refilling a request every quarter second")
		now = now.Add(250 * time.Millisecond)
		code, _, _ = publicSearch(s, allowedOrigin, "visitor-spec", `{"limit": 1}`)
		Expect(code).To(Equal(http.StatusOK))
		code, _, _ = publicSearch(s, allowedOrigin, "visitor-spec", `{"limit": 1}`)
		Expect(code).To(Equal(http.StatusTooManyRequests))
	})

	It("limits an index across visitors", func() {
		s := newServer(apiserver.PublicLimits{PerIndex: 5})
		for i := 0; i < 5; i++ {
			code, _, _ := publicSearch(s, allowedOrigin, fmt.Sprintf("visitor-%d", i), `{}`)
			Expect(code).To(Equal(http.StatusOK))
		}
		code, h, _ := publicSearch(s, allowedOrigin, "visitor-last", `{}`)
		Expect(code).To(Equal(http.StatusTooManyRequests))
		Expect(h.Get("Retry-After")).To(Equal("12"))
	})
})
