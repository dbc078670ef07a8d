package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/events"
)

const (
	goodView  = `{"type": "view", "objectID": "p1"}`
	goodClick = `{"type": "click", "objectID": "p2", "position": 3, "query": "red shoe"}`
)

func ms(t time.Time) string { return fmt.Sprint(t.UnixMilli()) }

var _ = Describe("POST /events", func() {
	var ix eventIndex
	BeforeEach(func() { ix = newEventIndex("ev-server", false) })

	DescribeTable("refuses a bad event inside a good batch with its exact reason, and stores the good ones",
		func(bad func() string, reason string) {
			before := len(ix.storedEvents())
			code, acc, body := ix.postEvents(batch(goodView, bad(), goodClick))
			Expect(code).To(Equal(http.StatusAccepted), body)
			Expect(acc).To(Equal(events.Accepted{Accepted: 2, Rejected: []events.Rejected{{Index: 1, Reason: reason}}}))
			Expect(ix.storedEvents()).To(HaveLen(before + 2))
		},
		Entry("not an object", func() string { return `42` }, "an event must be a JSON object"),
		Entry("no type", func() string { return `{"objectID": "p1"}` }, "type is required: one of view, click, addToCart, purchase, cancel"),
		Entry("an unknown type", func() string { return `{"type": "like", "objectID": "p1"}` }, `type "like" is not one of view, click, addToCart, purchase, cancel`),
		Entry("an unknown field", func() string { return `{"type": "view", "objectID": "p1", "email": "a@b.c"}` }, `unknown field "email"`),
		Entry("a field of another type", func() string { return `{"type": "view", "objectID": "p1", "position": 2}` }, "position is not a field of a view event"),
		Entry("a string where a number goes", func() string { return `{"type": "click", "objectID": "p1", "position": "3", "query": "q"}` }, "position must be a number"),
		Entry("a view without objectID", func() string { return `{"type": "view"}` }, "objectID is required"),
		Entry("an empty objectID", func() string { return `{"type": "view", "objectID": ""}` }, "objectID must be a string of 1 to 512 characters"),
		Entry("an objectID of 513 characters", func() string { return `{"type": "view", "objectID": "` + strings.Repeat("x", 513) + `"}` }, "objectID must be a string of 1 to 512 characters"),
		Entry("a click at position 0", func() string { return `{"type": "click", "objectID": "p1", "position": 0, "query": "q"}` }, "position must be an integer from 1 to 1000"),
		Entry("a click at position 1001", func() string { return `{"type": "click", "objectID": "p1", "position": 1001, "query": "q"}` }, "position must be an integer from 1 to 1000"),
		Entry("a click at position 1.5", func() string { return `{"type": "click", "objectID": "p1", "position": 1.5, "query": "q"}` }, "position must be an integer from 1 to 1000"),
		Entry("a click without position", func() string { return `{"type": "click", "objectID": "p1", "query": "q"}` }, "position must be an integer from 1 to 1000"),
		Entry("a click with neither query nor list", func() string { return `{"type": "click", "objectID": "p1", "position": 1}` },
			"a click needs query (a click on a search result) or list and from (a click on a recommendation)"),
		Entry("a click with query and list", func() string {
			return `{"type": "click", "objectID": "p1", "position": 1, "query": "q", "list": "similar", "from": "p2"}`
		}, "a click takes either query or list, not both"),
		Entry("a click with a blank query", func() string { return `{"type": "click", "objectID": "p1", "position": 1, "query": "   "}` }, "query must be a non-empty search text"),
		Entry("a click on an unknown list", func() string {
			return `{"type": "click", "objectID": "p1", "position": 1, "list": "bestsellers", "from": "p2"}`
		},
			`list "bestsellers" is not one of goesWith, similar, together, trending`),
		Entry("a click on trending with from", func() string {
			return `{"type": "click", "objectID": "p1", "position": 1, "list": "trending", "from": "p2"}`
		},
			"from is not a field of a click on trending: the list is no product's"),
		Entry("a click on a list without from", func() string { return `{"type": "click", "objectID": "p1", "position": 1, "list": "together"}` },
			"from is required with list: the product whose list was clicked"),
		Entry("a cart without items", func() string { return `{"type": "addToCart"}` }, "items must hold 1 to 1000 items"),
		Entry("a cart of no items", func() string { return `{"type": "addToCart", "items": []}` }, "items must hold 1 to 1000 items"),
		Entry("a cart of 1001 items", func() string {
			return `{"type": "addToCart", "items": [` + strings.Join(repeat(`{"objectID": "p1"}`, 1001), ",") + `]}`
		}, "items must hold 1 to 1000 items"),
		Entry("an item without objectID", func() string { return `{"type": "addToCart", "items": [{"objectID": "p1"}, {"quantity": 2}]}` }, "items[1].objectID is required"),
		Entry("a quantity of 0", func() string { return `{"type": "addToCart", "items": [{"objectID": "p1", "quantity": 0}]}` }, "items[0].quantity must be a positive integer"),
		Entry("a quantity of 1.5", func() string { return `{"type": "addToCart", "items": [{"objectID": "p1", "quantity": 1.5}]}` }, "items[0].quantity must be a positive integer"),
		Entry("a negative price", func() string {
			return `{"type": "addToCart", "currency": "EUR", "items": [{"objectID": "p1", "price": -1}]}`
		}, "items[0].price must be a number of at least 0"),
		Entry("a price without currency", func() string { return `{"type": "addToCart", "items": [{"objectID": "p1", "price": 5}]}` },
			"currency is required when an item has a price: a three-letter ISO 4217 code"),
		Entry("a currency of four letters", func() string { return `{"type": "addToCart", "currency": "EURO", "items": [{"objectID": "p1"}]}` },
			`currency "EURO" is not a three-letter ISO 4217 code`),
		Entry("a currency that is not ISO 4217", func() string { return `{"type": "addToCart", "currency": "ABC", "items": [{"objectID": "p1"}]}` },
			`currency "ABC" is not a three-letter ISO 4217 code`),
		Entry("a purchase without orderID", func() string { return `{"type": "purchase", "items": [{"objectID": "p1"}]}` }, "orderID is required"),
		Entry("an orderID of 257 characters", func() string {
			return `{"type": "purchase", "orderID": "` + strings.Repeat("o", 257) + `", "items": [{"objectID": "p1"}]}`
		}, "orderID must be a string of 1 to 256 characters"),
		Entry("a timestamp ten minutes ahead", func() string {
			return `{"type": "view", "objectID": "p1", "timestamp": ` + ms(time.Now().Add(10*time.Minute)) + `}`
		}, "timestamp must not be in the future"),
		Entry("a timestamp 401 days back", func() string {
			return `{"type": "view", "objectID": "p1", "timestamp": ` + ms(time.Now().Add(-401*24*time.Hour)) + `}`
		}, "timestamp must not be older than 400 days"),
		Entry("a timestamp with a fraction", func() string { return `{"type": "view", "objectID": "p1", "timestamp": 1700000000000.5}` },
			"timestamp must be an integer number of milliseconds since 1970-01-01 UTC"),
		Entry("a cancel of an unknown order", func() string { return `{"type": "cancel", "orderID": "never-placed"}` }, events.ReasonUnknownOrder),
	)

	DescribeTable("refuses a body that is not a list of 1 to 200 events with 400",
		func(body, message string) {
			code, _, res := ix.postEvents(body)
			Expect(code).To(Equal(http.StatusBadRequest))
			Expect(res).To(MatchJSON(errorBody(message)))
		},
		Entry("not JSON", `{"events": [`, `invalid body: send a JSON object {"events": [...]}: the JSON value is incomplete`),
		Entry("a list alone", `[]`, `invalid body: send a JSON object {"events": [...]}: expected a JSON object`),
		Entry("null", `null`, `invalid body: send a JSON object {"events": [...]}: expected a JSON object`),
		Entry("a mis-cased name", `{"Events": [{"type": "view", "objectID": "p1"}]}`, `invalid body: send a JSON object {"events": [...]}: unknown field "Events"`),
		Entry("invalid UTF-8 in an event", "{\"events\": [{\"type\": \"view\", \"objectID\": \"p\xff\"}]}",
			`invalid body: send a JSON object {"events": [...]}: syntax error at byte 43 (field "events[0].objectID"): invalid UTF-8`),
		Entry("events not a list", `{"events": {}}`, `invalid body: send a JSON object {"events": [...]}: field "events" must be an array, not object`),
		Entry("no events", `{}`, `invalid body: events is required: send {"events": [...]}`),
		Entry("an empty list", `{"events": []}`, "invalid body: events is empty; send 1 to 200"),
		Entry("201 events", batch(repeat(goodView, 201)...), "invalid body: 201 events sent; at most 200 per request"),
		Entry("another key", `{"events": [], "user": "x"}`, `invalid body: send a JSON object {"events": [...]}: unknown field "user"`),
	)

	It("takes 200 events, with a timestamp up to 400 days back, and keeps a click's query lowercase in eight words", func() {
		old := time.Now().Add(-30 * 24 * time.Hour)
		evs := append(repeat(goodView, 198),
			`{"type": "view", "objectID": "old-view", "timestamp": `+ms(old)+`}`,
			`{"type": "click", "objectID": "p9", "position": 1, "query": "  Red RUNNING  Shoes for the Road in winter AND summer "}`)
		code, acc, body := ix.postEvents(batch(evs...))
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(acc).To(Equal(events.Accepted{Accepted: 200, Rejected: []events.Rejected{}}))
		stored := ix.storedEvents()
		Expect(stored).To(ContainElement(SatisfyAll(
			HaveField("ObjectID", "old-view"), HaveField("Timestamp", old.UnixMilli()), HaveField("Source", events.FromServer))))
		Expect(stored).To(ContainElement(SatisfyAll(
			HaveField("ObjectID", "p9"), HaveField("Query", "red running shoes for the road in winter"), HaveField("Position", 1))))
	})

	It("takes a click on trending without from (an extension of the contract's three lists)", func() {
		code, acc, body := ix.postEvents(batch(`{"type": "click", "objectID": "trend-1", "position": 2, "list": "trending"}`))
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(acc).To(Equal(events.Accepted{Accepted: 1, Rejected: []events.Rejected{}}))
		Expect(ix.storedEvents()).To(ContainElement(SatisfyAll(
			HaveField("ObjectID", "trend-1"), HaveField("List", events.Trending), HaveField("From", ""))))
	})

	It("answers 429 with Retry-After beyond 600 requests a minute per key, and never counts a search", func() {
		now := time.Now()
		s := eventServer(events.New(esClient, events.Config{}), apiserver.EventLimits{PerKey: 3, Clock: func() time.Time { return now }}, nil)
		for i := 0; i < 3; i++ {
			Expect(send(s, http.MethodPost, ix.base+"/events", ix.key, `{"events": []}`, nil).Code).To(Equal(http.StatusBadRequest))
		}
		rec := send(s, http.MethodPost, ix.base+"/events", ix.key, batch(goodView), nil)
		Expect(rec.Code).To(Equal(http.StatusTooManyRequests))
		Expect(rec.Header().Get("Retry-After")).To(Equal("20"))
	})

	It("answers 503 with Retry-After when the backend cannot record orders, and a resend then counts once", func() {
		down, err := es.New("http://127.0.0.1:1")
		Expect(err).NotTo(HaveOccurred())
		s := eventServer(events.New(down, events.Config{}), apiserver.EventLimits{}, nil)
		rec := send(s, http.MethodPost, ix.base+"/events", ix.key, batch(purchase("o-503", "p-503")), nil)
		Expect(rec.Code).To(Equal(http.StatusServiceUnavailable))
		Expect(rec.Body.String()).To(MatchJSON(errorBody("events cannot be recorded for a moment; resending is safe")))
		Expect(rec.Header().Get("Retry-After")).NotTo(BeEmpty())
		for i := 0; i < 2; i++ {
			code, acc, body := ix.postEvents(batch(purchase("o-503", "p-503")))
			Expect(code).To(Equal(http.StatusAccepted), body)
			Expect(acc.Accepted).To(Equal(1))
		}
		Expect(ofType(ix.storedEvents(), events.Purchase)).To(ContainElement(HaveField("Items", ContainElement(HaveField("ObjectID", "p-503")))))
		var orders []events.OrderDoc
		for _, o := range ix.storedOrders() {
			if o.Products[0] == "p-503" {
				orders = append(orders, o)
			}
		}
		Expect(orders).To(HaveLen(1))
	})
})
