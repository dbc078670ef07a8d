package apiserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/elastic/go-elasticsearch/v8/typedapi/types/enums/refresh"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// The events endpoints that write are built beside these; until then the specs seed
// documents of the shared schema straight into the engine.
var catalogNames = esnames.For("acme", "catalog")

// seedDoc is a document and the ID it is written under ("" lets the backend choose).
type seedDoc struct {
	id  string
	doc any
}

// seed creates index with mapping when missing and writes docs, refreshed.
func seed(index, mapping string, docs ...seedDoc) {
	_, err := esClient.Indices.Create(index).Raw(strings.NewReader(mapping)).Do(ctx)
	if err != nil {
		ExpectWithOffset(1, es.Classify(err)).To(MatchError(es.ErrConflict))
	}
	var body bytes.Buffer
	for _, d := range docs {
		action := map[string]any{}
		if d.id != "" {
			action["_id"] = d.id
		}
		line, err := json.Marshal(map[string]any{"index": action})
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		src, err := json.Marshal(d.doc)
		ExpectWithOffset(1, err).NotTo(HaveOccurred())
		body.Write(append(append(line, '\n'), append(src, '\n')...))
	}
	res, err := esClient.Bulk().Index(index).Raw(&body).Refresh(refresh.True).Do(ctx)
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	ExpectWithOffset(1, res.Errors).To(BeFalse())
}

func order(ts time.Time, products ...string) events.OrderDoc {
	return events.OrderDoc{Timestamp: ts.UnixMilli(), Products: products, Source: events.FromServer, Counts: true}
}

// togetherList asks for a Bought together list with the catalog key.
func togetherList(path string) events.TogetherList {
	var l events.TogetherList
	getOK("/api/teams/acme/indexes/catalog/lists/together/"+path, &l)
	return l
}

// getOK reads a 200 answer of a GET with the catalog key into v.
func getOK(path string, v any) {
	rec := get(path, keys["catalog"])
	ExpectWithOffset(2, rec.Code).To(Equal(http.StatusOK), rec.Body.String())
	ExpectWithOffset(2, json.Unmarshal(rec.Body.Bytes(), v)).To(Succeed())
}

type hitSummary struct {
	id     string
	shared int64
}

func summary(l events.TogetherList) []hitSummary {
	out := make([]hitSummary, len(l.Hits))
	for i, h := range l.Hits {
		out[i] = hitSummary{h.ObjectID, h.SharedOrders}
	}
	return out
}

var _ = Describe("Bought together", Ordered, func() {
	now := time.Now()
	day := func(n int) time.Time { return now.Add(-time.Duration(n) * 24 * time.Hour) }

	BeforeAll(func() {
		loadRecords("acme", "catalog", catalogSettings, []string{`{"objectID": "p9", "name": "Shoe laces", "price": 2, "brand": "Acme", "inStock": true}`})
		DeferCleanup(func() {
			_, err := esClient.Delete(catalogNames.Alias(), "p9").Refresh(refresh.True).Do(ctx)
			Expect(err).NotTo(HaveOccurred())
		})
		cancelled := order(day(2), "p1", "p4", "p4x")
		cancelled.Cancelled = true
		old := order(day(401), "p1", "p5")
		browser := order(day(1), "p1", "p5")
		browser.Source, browser.Counts = events.FromBrowser, false
		seed(catalogNames.Orders(), events.OrderMapping,
			seedDoc{"o1", order(day(1), "p1", "p6", "p9")},
			seedDoc{"o2", order(day(3), "p1", "p6", "p3")},
			seedDoc{"o3", order(day(10), "p1", "p6", "p9")},
			seedDoc{"o4", order(day(20), "p1", "p3")},
			seedDoc{"o5", order(day(399), "p2", "p1", "p9")},
			seedDoc{"o6", order(day(5), "p2", "p3")},
			seedDoc{"o7", cancelled}, seedDoc{"o8", old}, seedDoc{"o9", browser},
		)
	})

	It("ranks the products by the orders they share with the given one", func() {
		l := togetherList("p1")
		Expect(l.ObjectID).To(Equal("p1"))
		Expect(l.Orders).To(BeEquivalentTo(5), "counted orders within 400 days holding p1")
		By("breaking ties by objectID, and leaving out cancelled, old and uncounted orders")
		Expect(summary(l)).To(Equal([]hitSummary{{"p6", 3}, {"p9", 3}, {"p3", 2}, {"p2", 1}}))
		Expect(l.Hits[0].Confidence).To(BeNumerically("~", 0.6))
		Expect(string(l.Hits[0].Record)).To(MatchJSON(`{"objectID": "p6", "name": "Red wool socks", "description": "Warm <b>and</b> soft", "brand": "Acme", "price": 9, "inStock": true, "popularity": 40, "specs": {"color": "red"}}`))
	})

	It("honours limit", func() {
		Expect(summary(togetherList("p1?limit=2"))).To(Equal([]hitSummary{{"p6", 3}, {"p9", 3}}))
	})

	It("answers an unknown product with an empty list", func() {
		l := togetherList("nobody-bought-this")
		Expect(l.Orders).To(BeZero())
		Expect(l.Hits).To(BeEmpty())
	})

	It("shows public pages only the retrievable fields, at most the policy's hit cap", func() {
		rec := send(server, http.MethodGet, "/api/public/indexes/pub-acme-catalog/lists/together/p1?limit=50", "", "",
			map[string]string{"Origin": allowedOrigin, "User-Agent": "together-spec"})
		Expect(rec.Code).To(Equal(http.StatusOK), rec.Body.String())
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		var l events.TogetherList
		Expect(json.Unmarshal(rec.Body.Bytes(), &l)).To(Succeed())
		Expect(summary(l)).To(Equal([]hitSummary{{"p6", 3}, {"p9", 3}, {"p3", 2}}), "maxHits is 3")
		Expect(string(l.Hits[0].Record)).To(MatchJSON(`{"objectID": "p6", "name": "Red wool socks", "price": 9, "brand": "Acme"}`))
	})

	DescribeTable("refuses bad requests with 400 or 403",
		func(path string, headers map[string]string, status int, message string) {
			rec := send(server, http.MethodGet, path, keys["catalog"], "", headers)
			Expect(rec.Code).To(Equal(status))
			Expect(rec.Body.String()).To(MatchJSON(errorBody(message)))
		},
		Entry("limit 0", "/api/teams/acme/indexes/catalog/lists/together/p1?limit=0", nil, 400, "invalid parameter: limit must be an integer from 1 to 100"),
		Entry("limit 101", "/api/teams/acme/indexes/catalog/lists/together/p1?limit=101", nil, 400, "invalid parameter: limit must be an integer from 1 to 100"),
		Entry("public limit 51", "/api/public/indexes/pub-acme-catalog/lists/together/p1?limit=51", map[string]string{"Origin": allowedOrigin}, 400, "invalid parameter: limit must be an integer from 1 to 50"),
		Entry("public without an allowed origin", "/api/public/indexes/pub-acme-catalog/lists/together/p1", map[string]string{"Origin": "http://evil.test"}, 403, "origin not allowed: send an Origin header with one of the index's allowed origins"),
	)

	It("leaves out a product deleted from the catalog", func() {
		_, err := esClient.Delete(catalogNames.Alias(), "p9").Refresh(refresh.True).Do(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(summary(togetherList("p1"))).To(Equal([]hitSummary{{"p6", 3}, {"p3", 2}, {"p2", 1}}))
		loadRecords("acme", "catalog", catalogSettings, []string{`{"objectID": "p9", "name": "Shoe laces", "price": 2, "brand": "Acme", "inStock": true}`})
	})

	It("drops a cancelled order from the list", func() {
		o := order(day(1), "p1", "p6", "p9")
		o.Cancelled = true
		seed(catalogNames.Orders(), events.OrderMapping, seedDoc{"o1", o})
		Expect(summary(togetherList("p1"))).To(Equal([]hitSummary{{"p3", 2}, {"p6", 2}, {"p9", 2}, {"p2", 1}}))
	})

	It("shares the public search rate limit", func() {
		stopped := time.Now()
		s := newServer(apiserver.PublicLimits{PerVisitor: 1, Clock: func() time.Time { return stopped }})
		code, _, body := publicSearch(s, allowedOrigin, "limited-together", `{}`)
		Expect(code).To(Equal(http.StatusOK), body)
		headers := map[string]string{"Origin": allowedOrigin, "User-Agent": "limited-together"}
		rec := send(s, http.MethodGet, "/api/public/indexes/pub-acme-catalog/lists/together/p1", "", "", headers)
		Expect(rec.Code).To(Equal(http.StatusTooManyRequests))
		Expect(rec.Header().Get("Retry-After")).NotTo(BeEmpty())
	})
})
