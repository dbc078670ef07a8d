package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/events"
)

// ordersWith returns the stored orders holding product.
func (ix eventIndex) ordersWith(product string) []events.OrderDoc {
	var out []events.OrderDoc
	for _, o := range ix.storedOrders() {
		for _, p := range o.Products {
			if p == product {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// purchasesOf returns the stored purchase events holding product.
func (ix eventIndex) purchasesOf(product string) []events.EventDoc {
	var out []events.EventDoc
	for _, d := range ofType(ix.storedEvents(), events.Purchase) {
		for _, it := range d.Items {
			if it.ObjectID == product {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

var _ = Describe("Orders", func() {
	var ix eventIndex
	BeforeEach(func() { ix = newEventIndex("ev-orders", false) })

	It("counts an order sent 20 times at once across two replicas once", func() {
		body := []byte(batch(purchase("order-20x", "twenty-a", "twenty-b")))
		var wg sync.WaitGroup
		codes := make([]int, 20)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				codes[i] = call(i, http.MethodPost, ix.base+"/events", ix.key, body).status
			}()
		}
		wg.Wait()
		Expect(codes).To(HaveEach(http.StatusAccepted))
		Expect(ix.ordersWith("twenty-a")).To(ConsistOf(SatisfyAll(
			HaveField("Products", Equal([]string{"twenty-a", "twenty-b"})), HaveField("Source", events.FromServer), HaveField("Counts", true))))
		purchases := ix.purchasesOf("twenty-a")
		Expect(purchases).To(HaveLen(1))
		Expect(purchases[0].Revenue).To(Equal(20.0))
		Expect(purchases[0].Currency).To(Equal("EUR"))
	})

	It("keeps an order's first 50 distinct products", func() {
		products := make([]string, 0, 70)
		for i := 0; i < 60; i++ {
			products = append(products, fmt.Sprintf("fifty-%02d", i))
			if i%5 == 0 {
				products = append(products, fmt.Sprintf("fifty-%02d", i))
			}
		}
		code, acc, body := ix.postEvents(batch(purchase("order-fifty", products...)))
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(acc.Accepted).To(Equal(1))
		orders := ix.ordersWith("fifty-00")
		Expect(orders).To(HaveLen(1))
		Expect(orders[0].Products).To(HaveLen(50))
		Expect(orders[0].Products[49]).To(Equal("fifty-49"))
	})

	It("marks a cancelled order and its purchase, records the cancel once, and refuses a cancel from a browser", func() {
		code, _, body := ix.postEvents(batch(purchase("order-cancel", "cancel-a", "cancel-b")))
		Expect(code).To(Equal(http.StatusAccepted), body)
		cancel := `{"type": "cancel", "orderID": "order-cancel"}`
		cancelsBefore := len(ofType(ix.storedEvents(), events.Cancel))
		for i := 0; i < 2; i++ {
			code, acc, body := ix.postEvents(batch(cancel))
			Expect(code).To(Equal(http.StatusAccepted), body)
			Expect(acc).To(Equal(events.Accepted{Accepted: 1, Rejected: []events.Rejected{}}))
		}
		Expect(ix.ordersWith("cancel-a")).To(ConsistOf(HaveField("Cancelled", true)))
		Expect(ix.purchasesOf("cancel-a")).To(ConsistOf(HaveField("Cancelled", true)))
		Expect(ofType(ix.storedEvents(), events.Cancel)).To(HaveLen(cancelsBefore + 1))

		By("keeping a resent cancelled order cancelled")
		code, _, body = ix.postEvents(batch(purchase("order-cancel", "cancel-a", "cancel-b")))
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(ix.ordersWith("cancel-a")).To(ConsistOf(HaveField("Cancelled", true)))
		Expect(ix.purchasesOf("cancel-a")).To(ConsistOf(HaveField("Cancelled", true)))

		code, acc, _ := ix.browserEvents(server, chromeDesktop, batch(cancel), nil)
		Expect(code).To(Equal(http.StatusAccepted))
		Expect(acc.Rejected).To(Equal([]events.Rejected{{Index: 0, Reason: "cancel is accepted from servers only"}}))
	})
})

var _ = Describe("POST /past-orders", func() {
	var ix eventIndex
	BeforeEach(func() { ix = newEventIndex("ev-past", false) })

	pastOrder := func(id string, at time.Time, product string) string {
		return fmt.Sprintf(`{"orderID": %q, "timestamp": %d, "items": [{"objectID": %q, "quantity": 2, "price": 3.5}], "currency": "usd"}`,
			id, at.UnixMilli(), product)
	}
	post := func(orders ...string) (int, events.Accepted, string) {
		return decodeAccepted(send(server, http.MethodPost, ix.base+"/past-orders", ix.key,
			`{"orders": [`+strings.Join(orders, ",")+`]}`, nil).Result())
	}

	It("accepts an order of 399 days, refuses one older than 400, and counts a resent order once, outside the events", func() {
		now := time.Now()
		code, acc, body := post(pastOrder("past-399", now.Add(-399*24*time.Hour), "past-a"),
			pastOrder("past-401", now.Add(-400*24*time.Hour-time.Minute), "past-b"),
			`{"orderID": "past-no-time", "items": [{"objectID": "past-c"}]}`)
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(acc).To(Equal(events.Accepted{Accepted: 1, Rejected: []events.Rejected{
			{Index: 1, Reason: "timestamp must not be older than 400 days"},
			{Index: 2, Reason: "timestamp is required: integer milliseconds since 1970-01-01 UTC"}}}))
		code, acc, _ = post(pastOrder("past-399", now.Add(-399*24*time.Hour), "past-a"))
		Expect(code).To(Equal(http.StatusAccepted))
		Expect(acc.Accepted).To(Equal(1))
		Expect(ix.ordersWith("past-a")).To(ConsistOf(SatisfyAll(HaveField("Source", events.FromPast), HaveField("Counts", true),
			HaveField("Timestamp", now.Add(-399*24*time.Hour).UnixMilli()))))
		Expect(ix.ordersWith("past-b")).To(BeEmpty())
		Expect(ix.purchasesOf("past-a")).To(BeEmpty())
	})

	DescribeTable("refuses a body that is not a list of 1 to 200 orders with 400",
		func(body, message string) {
			rec := send(server, http.MethodPost, ix.base+"/past-orders", ix.key, body, nil)
			Expect(rec.Code).To(Equal(http.StatusBadRequest))
			Expect(rec.Body.String()).To(MatchJSON(errorBody(message)))
		},
		Entry("events instead", `{"events": []}`, `invalid body: send a JSON object {"orders": [...]}: unknown field "events"`),
		Entry("an empty list", `{"orders": []}`, "invalid body: orders is empty; send 1 to 200"),
		Entry("201 orders", `{"orders": [`+strings.Join(repeat(`{}`, 201), ",")+`]}`, "invalid body: 201 orders sent; at most 200 per request"),
	)
})
