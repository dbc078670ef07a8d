package apiserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("GET /config", func() {
	It("returns the settings with every list present and no rebuild", func() {
		rec := get("/api/teams/acme/indexes/products/config", keys["search"])
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Body.String()).To(MatchJSON(`{
			"searchableFields": [{"path": "name", "weight": 3}],
			"filterableFields": [], "facetFields": ["brand"], "sortableFields": [],
			"ranking": ["sort", "words", "typo", "exact", "custom"],
			"customRanking": [], "synonyms": [],
			"typoTolerance": {"enabled": true, "minWordSizeFor1Typo": 4, "minWordSizeFor2Typos": 8, "onNumbers": false, "disableOnFields": [], "disableOnWords": []},
			"stopWords": {"enabled": true, "words": [], "replace": false},
			"language": "en", "countBrowserOrders": false,
			"rebuild": null}`))
	})
})

var _ = Describe("GET /public-access", func() {
	It("returns the public ID, the allowed origins and the effective policy", func() {
		rec := get("/api/teams/acme/indexes/products/public-access", keys["write"])
		Expect(rec.Code).To(Equal(http.StatusOK))
		Expect(rec.Body.String()).To(MatchJSON(`{
			"publicId": "pub-acme-products",
			"allowedOrigins": ["https://shop.example"],
			"policy": {"maxHits": 20, "retrievableFields": [], "forcedFilters": [],
				"allowedFacets": [], "allowedFilters": [], "allowedSorts": []}}`))
	})
})

var _ = Describe("The HTTP layer", func() {
	It("answers an unknown route with 404 and a JSON error", func() {
		rec := get("/api/teams/acme/indexes/products/nope", keys["search"])
		Expect(rec.Code).To(Equal(http.StatusNotFound))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("not found")))
	})

	It("refuses a body that is not declared as JSON with 415", func() {
		req := httptest.NewRequest(http.MethodGet, "/api/teams/acme/indexes/products/config", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("Authorization", "Bearer "+keys["search"])
		rec := do(req)
		Expect(rec.Code).To(Equal(http.StatusUnsupportedMediaType))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("request body must be sent with Content-Type: application/json")))
	})

	It("tags every response with a request ID", func() {
		Expect(get("/healthz", "").Header().Get("X-Request-Id")).NotTo(BeEmpty())
	})

	It("reports health, readiness and metrics", func() {
		Expect(get("/healthz", "").Code).To(Equal(http.StatusOK))
		Expect(get("/readyz", "").Code).To(Equal(http.StatusOK))
		metrics := get("/metrics", "")
		Expect(metrics.Code).To(Equal(http.StatusOK))
		Expect(metrics.Body.String()).To(ContainSubstring(`aisle_http_requests_total{method="GET",route="/api/teams/:workspaceId/indexes/:index/config",status="200"}`))
	})
})
