package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"sigs.k8s.io/controller-runtime/pkg/client"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/recommend"
)

// The shelf index plants the structure the lists must find: phones with their cases and
// a charger bought with them, a television bought everywhere, earbuds on the rise.
var shelfSettings = searchv1alpha1.IndexSettings{
	SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
	FilterableFields: []searchv1alpha1.FieldPath{"brand", "inStock", "category"},
	FacetFields:      []searchv1alpha1.FieldPath{"category", "brand"},
	Recommendations:  &searchv1alpha1.RecommendationSettings{SimilarWithin: "category"},
}

var shelfRecords = []string{
	`{"objectID": "ph1", "name": "Zeta phone 128GB", "description": "Zeta smartphone with black glass", "brand": "Zeta", "category": "phones", "inStock": true}`,
	`{"objectID": "ph2", "name": "Zeta phone 256GB", "description": "Zeta smartphone with black glass and more storage", "brand": "Zeta", "category": "phones", "inStock": true}`,
	`{"objectID": "ph3", "name": "Nova phone", "description": "Nova smartphone with a large screen", "brand": "Nova", "category": "phones", "inStock": true}`,
	`{"objectID": "c1", "name": "Zeta phone case", "description": "Black leather case for the Zeta phone", "brand": "Zeta", "category": "cases", "inStock": true}`,
	`{"objectID": "c2", "name": "Nova phone case", "description": "Clear case for the Nova phone", "brand": "Nova", "category": "cases", "inStock": false}`,
	`{"objectID": "ch1", "name": "USB-C charger 30W", "description": "Fast charger for phones", "brand": "Volt", "category": "chargers", "inStock": true}`,
	`{"objectID": "tv1", "name": "Television 55 inch", "description": "Smart TV", "brand": "Globo", "category": "tvs", "inStock": true}`,
	`{"objectID": "hp1", "name": "Wireless earbuds", "description": "Earbuds with noise cancelling", "brand": "Zeta", "category": "headphones", "inStock": true}`,
}

var shelfPolicy = &searchv1alpha1.PublicSearchPolicy{
	MaxHits:           2,
	RetrievableFields: []searchv1alpha1.FieldPath{"name"},
	ForcedFilters:     []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}},
	AllowedFacets:     []searchv1alpha1.FieldPath{"category"},
	AllowedFilters:    []searchv1alpha1.FieldPath{"brand"},
}

const (
	shelfBase   = "/api/teams/acme/indexes/shelf"
	shelfPublic = "/api/public/indexes/pub-acme-shelf"
)

var shelfNames = esnames.For("acme", "shelf")

type listHit struct {
	id, reason string
}

// shelfList asks for a list with the shelf key and summarizes its hits.
func shelfList(path string) []listHit {
	GinkgoHelper()
	return summarize(shelfListBody(path))
}

func shelfListBody(path string) recommend.List {
	GinkgoHelper()
	rec := get(shelfBase+path, keys["shelf"])
	Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
	var l recommend.List
	Expect(json.Unmarshal(rec.Body.Bytes(), &l)).To(Succeed())
	return l
}

func summarize(l recommend.List) []listHit {
	out := []listHit{}
	for _, h := range l.Hits {
		out = append(out, listHit{h.ObjectID, h.Reason})
	}
	return out
}

func ids(hits []listHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.id
	}
	return out
}

// pastOrders sends orders of products, each placed days ago, through POST /past-orders.
func pastOrders(prefix string, n, daysAgo int, products ...string) {
	GinkgoHelper()
	items := make([]string, len(products))
	for i, p := range products {
		items[i] = fmt.Sprintf(`{"objectID": %q}`, p)
	}
	orders := make([]string, n)
	ts := time.Now().Add(-time.Duration(daysAgo) * 24 * time.Hour).UnixMilli()
	for i := range orders {
		orders[i] = fmt.Sprintf(`{"orderID": "%s-%d", "timestamp": %d, "items": [%s]}`, prefix, i, ts, strings.Join(items, ","))
	}
	rec := post(shelfBase+"/past-orders", keys["shelf"], `{"orders": [`+strings.Join(orders, ",")+`]}`)
	Expect(rec.Code).To(Equal(http.StatusAccepted), rec.Body.String())
}

// views sends n views of a product spread over the days from..to ago (server events may
// carry their time).
func views(product string, n, from, to int) {
	GinkgoHelper()
	evs := make([]string, n)
	now := time.Now()
	for i := range evs {
		day := from + (to-from)*i/max(n, 1)
		ts := now.Add(-time.Duration(day)*24*time.Hour - time.Hour).UnixMilli()
		evs[i] = fmt.Sprintf(`{"type": "view", "objectID": %q, "timestamp": %d}`, product, ts)
	}
	rec := post(shelfBase+"/events", keys["shelf"], batch(evs...))
	Expect(rec.Code).To(Equal(http.StatusAccepted), rec.Body.String())
}

var _ = Describe("Recommendation lists (issue 23)", Ordered, func() {
	BeforeAll(func() {
		createIndexWith("acme", "shelf", shelfSettings, []searchv1alpha1.Origin{allowedOrigin}, shelfPolicy)
		issueFor("shelf", "acme", []searchv1alpha1.Scope{"search", "write"}, []string{"shelf"}, nil, nil)
		loadRecords("acme", "shelf", shelfSettings, shelfRecords)
		Eventually(func() int { return get(shelfBase+"/lists/similar/ph1", keys["shelf"]).Code }).Should(Equal(http.StatusOK))

		pastOrders("case", 5, 3, "ph1", "c1")
		pastOrders("charger", 4, 5, "ph1", "ch1")
		pastOrders("charger-alone", 2, 4, "ch1")
		pastOrders("phones", 3, 6, "ph1", "ph2")
		pastOrders("tv-with-phone", 1, 8, "ph1", "tv1")
		pastOrders("tv", 30, 10, "tv1")

		views("tv1", 20, 0, 6)  // a steady best seller: 20 views a week
		views("tv1", 80, 8, 34) // ... for the four weeks before too
		views("hp1", 12, 0, 3)  // rising: new this week
		views("ch1", 1, 0, 1)   // one stray view
		// Writes of events and orders are answered before a refresh; rawDocs refreshes.
		Eventually(func() int { return len(rawDocs(shelfNames.EventsPattern())) }).Should(Equal(113))
		Eventually(func() int { return len(rawDocs(shelfNames.Orders())) }).Should(Equal(45))
	})

	Describe("similar", func() {
		It("lists the products sharing the product's words and facet values, within its similarWithin value", func() {
			l := shelfListBody("/lists/similar/ph1")
			Expect(l.ObjectID).To(Equal("ph1"))
			Expect(ids(summarize(l))).To(Equal([]string{"ph2", "ph3"}), "phones only: the Zeta case shares words but not the category")
			Expect(l.Hits[0].Reason).To(Equal(recommend.ReasonContent))
			Expect(l.Hits[0].Score).To(BeNumerically(">", l.Hits[1].Score))
			Expect(string(l.Hits[0].Record)).To(MatchJSON(shelfRecords[1]))
		})

		It("keeps only the products the filters match", func() {
			Expect(ids(shelfList("/lists/similar/ph1?filters=" + url.QueryEscape(`{"field": "brand", "eq": "Nova"}`)))).To(Equal([]string{"ph3"}))
		})

		It("answers an unknown product with an empty list", func() {
			l := shelfListBody("/lists/similar/nobody")
			Expect(l.ObjectID).To(Equal("nobody"))
			Expect(l.Hits).To(BeEmpty())
		})
	})

	Describe("goesWith", func() {
		It("lists the products bought with the product, by lift, never one of its own category", func() {
			l := shelfListBody("/lists/goesWith/ph1?limit=2")
			Expect(summarize(l)).To(Equal([]listHit{{"c1", "orders"}, {"ch1", "orders"}}), "a phone's case and charger, not the other phone")
			Expect(l.Hits[0].Score).To(BeNumerically(">", l.Hits[1].Score))
		})

		It("fills up with the best sellers of the categories bought with its category, below the minimum of shared orders", func() {
			// The television shares 1 order with ph1, under the default minimum of 2; it is
			// the best seller of the categories bought with phones.
			Expect(shelfList("/lists/goesWith/ph1")).To(Equal([]listHit{{"c1", "orders"}, {"ch1", "orders"}, {"tv1", "categories"}}))
		})

		It("falls back to the categories for a product without orders", func() {
			Expect(shelfList("/lists/goesWith/ph3")).To(Equal([]listHit{{"tv1", "categories"}, {"ch1", "categories"}, {"c1", "categories"}}))
		})

		It("keeps only the products the filters match", func() {
			Expect(ids(shelfList("/lists/goesWith/ph1?filters=" + url.QueryEscape(`{"field": "brand", "eq": "Volt"}`)))).To(Equal([]string{"ch1"}))
		})

		It("never lists a product deleted from the catalog", func() {
			_, err := esClient.Delete(shelfNames.Alias(), "c1").Refresh(refresh.True).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(func() { loadRecords("acme", "shelf", shelfSettings, shelfRecords[3:4]) })
			Expect(ids(shelfList("/lists/goesWith/ph1"))).To(Equal([]string{"ch1", "tv1"}))
			Expect(ids(shelfList("/lists/goesWith/ph3"))).To(Equal([]string{"tv1", "ch1"}))
		})
	})

	Describe("trending", func() {
		It("ranks a rising product above a steady best seller, and ignores one stray view", func() {
			l := shelfListBody("/lists/trending")
			Expect(l.ObjectID).To(BeEmpty())
			Expect(summarize(l)).To(Equal([]listHit{{"hp1", "trending"}, {"tv1", "trending"}}))
			Expect(l.Hits[1].Score).To(BeNumerically("~", 1, 0.05), "as many views a day as before")
		})

		It("lists the trending products of one facet value", func() {
			Expect(ids(shelfList("/lists/trending?field=category&value=tvs"))).To(Equal([]string{"tv1"}))
		})
	})

	It("shows public pages only the retrievable fields of the products the policy lets through, at most its hit cap", func() {
		rec := send(server, http.MethodGet, shelfPublic+"/lists/goesWith/ph3?limit=50", "", "",
			map[string]string{"Origin": allowedOrigin, "User-Agent": "lists-spec"})
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		var l recommend.List
		Expect(json.Unmarshal(rec.Body.Bytes(), &l)).To(Succeed())
		Expect(ids(summarize(l))).To(Equal([]string{"tv1", "ch1"}), "maxHits is 2")
		Expect(string(l.Hits[0].Record)).To(MatchJSON(`{"objectID": "tv1", "name": "Television 55 inch"}`))
		rec = send(server, http.MethodGet, shelfPublic+"/lists/trending?field=category&value=headphones", "", "",
			map[string]string{"Origin": allowedOrigin, "User-Agent": "lists-spec"})
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		Expect(rec.Body.String()).To(ContainSubstring(`"objectID":"hp1"`))
	})

	It("applies the policy's forced filters", func() {
		rec := send(server, http.MethodGet, shelfPublic+"/lists/similar/c1", "", "",
			map[string]string{"Origin": allowedOrigin, "User-Agent": "lists-spec"})
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		Expect(rec.Body.String()).NotTo(ContainSubstring(`"c2"`), "the Nova case is out of stock")
		Expect(ids(shelfList("/lists/similar/c1"))).To(ContainElement("c2"))
	})

	DescribeTable("refuses bad requests with 400 or 403 naming the problem",
		func(path string, public bool, status int, message string) {
			headers, key := map[string]string{}, keys["shelf"]
			if public {
				headers, key, path = map[string]string{"Origin": allowedOrigin}, "", shelfPublic+path
			} else {
				path = shelfBase + path
			}
			rec := send(server, http.MethodGet, path, key, "", headers)
			Expect(rec.Code).To(Equal(status), rec.Body.String())
			Expect(rec.Body.String()).To(MatchJSON(errorBody(message)))
		},
		Entry("an unknown list", "/lists/bestsellers/ph1", false, 400,
			`invalid parameter: list "bestsellers" is not one of similar, goesWith, together (and trending, which takes no objectID)`),
		Entry("trending with an objectID", "/lists/trending/ph1", false, 400,
			`invalid parameter: list "trending" is not one of similar, goesWith, together (and trending, which takes no objectID)`),
		Entry("limit 0", "/lists/similar/ph1?limit=0", false, 400, "invalid parameter: limit must be an integer from 1 to 50"),
		Entry("limit 51", "/lists/goesWith/ph1?limit=51", false, 400, "invalid parameter: limit must be an integer from 1 to 50"),
		Entry("public limit 51", "/lists/trending?limit=51", true, 400, "invalid parameter: limit must be an integer from 1 to 50"),
		Entry("filters that are not JSON", "/lists/similar/ph1?filters=%7Bbrand", false, 400,
			"invalid parameter: filters must be a filter in the search request's JSON form, URL-encoded: syntax error at byte 1: invalid character 'b' at start of value"),
		Entry("filters on a field that is not filterable", "/lists/goesWith/ph1?filters="+url.QueryEscape(`{"field": "name", "eq": "x"}`), false, 400,
			`invalid parameter: filters.field: "name" is not a filterable field (filterable fields: brand, inStock, category)`),
		Entry("public filters on a field not allowed", "/lists/similar/ph1?filters="+url.QueryEscape(`{"field": "category", "eq": "x"}`), true, 400,
			`invalid parameter: filters.field: "category" is not allowed in public filters (allowed: brand)`),
		Entry("trending in a field that is no facet", "/lists/trending?field=name&value=x", false, 400,
			`invalid parameter: field: "name" is not a facet field (facet fields: category, brand)`),
		Entry("trending in a facet not allowed in public facets", "/lists/trending?field=brand&value=Zeta", true, 400,
			`invalid parameter: field: "brand" is not allowed in public facets (allowed: category)`),
		Entry("a field without value", "/lists/trending?field=category", false, 400,
			"invalid parameter: field and value go together: a facet field and one of its values"),
		Entry("field on a product's list", "/lists/similar/ph1?field=category&value=tvs", false, 400,
			"invalid parameter: field and value are trending's parameters"),
	)

	It("refuses a public list without an allowed origin", func() {
		rec := send(server, http.MethodGet, shelfPublic+"/lists/similar/ph1", "", "", map[string]string{"Origin": "http://evil.test"})
		Expect(rec.Code).To(Equal(http.StatusForbidden))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("origin not allowed: send an Origin header with one of the index's allowed origins")))
	})

	It("shares the public search rate limit", func() {
		stopped := time.Now()
		s := newServer(apiserver.PublicLimits{PerVisitor: 1, Clock: func() time.Time { return stopped }})
		headers := map[string]string{"Origin": allowedOrigin, "User-Agent": "limited-lists"}
		Expect(send(s, http.MethodGet, shelfPublic+"/lists/trending", "", "", headers).Code).To(Equal(http.StatusOK))
		rec := send(s, http.MethodGet, shelfPublic+"/lists/similar/ph1", "", "", headers)
		Expect(rec.Code).To(Equal(http.StatusTooManyRequests))
		Expect(rec.Header().Get("Retry-After")).NotTo(BeEmpty())
	})
})

var _ = Describe("Recommendation settings (issue 23)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() { ci = newCatalogIndex() })

	It("are written and shown with their defaults, and reported as applied", func() {
		code, body := put(ci.base+"/config", ci.writeKey, `{"facetFields": ["category"], "recommendations": {"similarWithin": "category"}}`)
		Expect(code).To(Equal(http.StatusOK), body)
		var got struct {
			Recommendations json.RawMessage `json:"recommendations"`
			Applied         []string        `json:"applied"`
		}
		Expect(json.Unmarshal([]byte(body), &got)).To(Succeed())
		Expect(string(got.Recommendations)).To(MatchJSON(`{"similarWithin": "category", "minSharedOrders": 2,
			"eventWeights": {"view": 1, "click": 2, "addToCart": 5, "purchase": 10}}`))
		Expect(got.Applied).To(Equal([]string{"facetFields", "recommendations"}))
		Expect(get(ci.base+"/config", ci.writeKey).Body.String()).To(ContainSubstring(`"similarWithin":"category"`))
	})

	It("are replaced whole: a key left out returns to its default", func() {
		code, body := put(ci.base+"/config", ci.writeKey, `{"facetFields": ["category"], "recommendations": {"minSharedOrders": 5, "eventWeights": {"view": 0}}}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).To(ContainSubstring(`"recommendations":{"minSharedOrders":5,"eventWeights":{"view":0,"click":2,"addToCart":5,"purchase":10}}`))
		Expect(body).To(ContainSubstring(`"applied":["recommendations"]`))
		code, body = put(ci.base+"/config", ci.writeKey, `{"facetFields": ["category"]}`)
		Expect(code).To(Equal(http.StatusOK), body)
		Expect(body).NotTo(ContainSubstring("recommendations\":{"), "absent again: every default")
	})

	DescribeTable("are refused with 400 naming each bad field, writing nothing",
		func(settings string, messages ...string) {
			generation := func() int64 {
				idx := &searchv1alpha1.SearchIndex{}
				Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: "shop", Name: ci.name}, idx)).To(Succeed())
				return idx.Generation
			}
			before := generation()
			code, body := put(ci.base+"/config", ci.writeKey, settings)
			Expect(code).To(Equal(http.StatusBadRequest), body)
			for _, m := range messages {
				Expect(body).To(ContainSubstring(m))
			}
			Expect(generation()).To(Equal(before))
		},
		Entry("similarWithin outside the facet fields", `{"facetFields": ["brand"], "recommendations": {"similarWithin": "category"}}`,
			`recommendations.similarWithin: \"category\" is not a facet field (facet fields: brand)`),
		Entry("numbers out of range (Kubernetes validation)", `{"recommendations": {"minSharedOrders": 0, "eventWeights": {"purchase": 1001}}}`,
			"recommendations.minSharedOrders", "recommendations.eventWeights.purchase"),
		Entry("an unknown field", `{"recommendations": {"weights": {}}}`, "unknown"),
	)
})
