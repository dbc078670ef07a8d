package apiserver_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/events"
)

// Real browsers' user agents.
const (
	chromeDesktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	iPhoneSafari  = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
	iPadSafari    = "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)

var _ = Describe("POST /api/public/indexes/{publicId}/events", func() {
	var ix eventIndex
	BeforeEach(func() { ix = newEventIndex("ev-public", false) })

	It("takes events as text/plain or JSON from an allowed origin, with CORS, and stores device, country and site", func() {
		s := eventServer(events.New(esClient, events.Config{}), apiserver.EventLimits{}, &events.Countries{Header: "X-Viewer-Country"})
		code, acc, body := ix.browserEvents(s, iPhoneSafari, batch(`{"type": "view", "objectID": "public-iphone"}`), map[string]string{"X-Viewer-Country": "de"})
		Expect(code).To(Equal(http.StatusAccepted), body)
		Expect(acc).To(Equal(events.Accepted{Accepted: 1, Rejected: []events.Rejected{}}))
		rec := send(server, http.MethodPost, ix.public, "", batch(`{"type": "view", "objectID": "public-ipad"}`),
			map[string]string{"Origin": allowedOrigin, "User-Agent": iPadSafari})
		Expect(rec.Code).To(Equal(http.StatusAccepted))
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		stored := ix.storedEvents()
		Expect(stored).To(ContainElement(SatisfyAll(HaveField("ObjectID", "public-iphone"), HaveField("Device", "mobile"),
			HaveField("Country", "DE"), HaveField("Site", "allowed.test"), HaveField("Source", events.FromBrowser))))
		Expect(stored).To(ContainElement(SatisfyAll(HaveField("ObjectID", "public-ipad"), HaveField("Device", "tablet"), HaveField("Country", ""))))
	})

	DescribeTable("refuses per event what only servers may send",
		func(ev, reason string) {
			code, acc, body := ix.browserEvents(server, chromeDesktop, batch(goodView, ev), nil)
			Expect(code).To(Equal(http.StatusAccepted), body)
			Expect(acc).To(Equal(events.Accepted{Accepted: 1, Rejected: []events.Rejected{{Index: 1, Reason: reason}}}))
		},
		Entry("a timestamp", `{"type": "view", "objectID": "p1", "timestamp": `+ms(time.Now())+`}`, "timestamp is accepted from servers only"),
		Entry("a cancel", `{"type": "cancel", "orderID": "o1"}`, "cancel is accepted from servers only"),
	)

	It("refuses more than 100 events, another content type, and an origin that is not allowed", func() {
		code, _, body := ix.browserEvents(server, chromeDesktop, batch(repeat(goodView, 101)...), nil)
		Expect(code).To(Equal(http.StatusBadRequest))
		Expect(body).To(MatchJSON(errorBody("invalid body: 101 events sent; at most 100 per request")))
		code, _, body = ix.browserEvents(server, chromeDesktop, batch(goodView), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		Expect(code).To(Equal(http.StatusUnsupportedMediaType))
		Expect(body).To(MatchJSON(errorBody("events must be sent with Content-Type: text/plain or application/json")))
		code, _, body = ix.browserEvents(server, chromeDesktop, batch(goodView), map[string]string{"Origin": "http://evil.test"})
		Expect(code).To(Equal(http.StatusForbidden))
		Expect(body).To(MatchJSON(errorBody("origin not allowed: send an Origin header with one of the index's allowed origins")))
	})

	It("answers the preflight of an allowed origin", func() {
		rec := send(server, http.MethodOptions, ix.public, "", "", map[string]string{
			"Origin": allowedOrigin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
		Expect(rec.Code).To(Equal(http.StatusNoContent))
		Expect(rec.Header().Get("Access-Control-Allow-Origin")).To(Equal(allowedOrigin))
		Expect(rec.Header().Get("Access-Control-Allow-Methods")).To(ContainSubstring("POST"))
	})

	It("limits a visitor to 600 requests a minute per public ID, apart from search", func() {
		now := time.Now()
		s := eventServer(events.New(esClient, events.Config{}), apiserver.EventLimits{PerVisitor: 2, Clock: func() time.Time { return now }}, nil)
		for i := 0; i < 2; i++ {
			code, _, _ := ix.browserEvents(s, "limit-visitor "+chromeDesktop, `{"events": []}`, nil)
			Expect(code).To(Equal(http.StatusBadRequest))
		}
		code, _, _ := ix.browserEvents(s, "limit-visitor "+chromeDesktop, batch(goodView), nil)
		Expect(code).To(Equal(http.StatusTooManyRequests))
		code, _, _ = ix.browserEvents(s, "another "+chromeDesktop, batch(goodView), nil)
		Expect(code).To(Equal(http.StatusAccepted))
	})

	DescribeTable("answers crawlers and automation as usual, drops their events and counts them under notRecorded",
		func(userAgent, reason string) {
			before := ix.storedEvents()
			code, acc, body := ix.browserEvents(server, userAgent, batch(goodView, goodView, goodClick), nil)
			Expect(code).To(Equal(http.StatusAccepted), body)
			Expect(acc).To(Equal(events.Accepted{Accepted: 3, Rejected: []events.Rejected{}}))
			after := ix.storedEvents()
			Expect(after).To(HaveLen(len(before) + 1))
			Expect(ofType(after, events.NotRecorded)).To(ContainElement(SatisfyAll(
				HaveField("Reason", reason), HaveField("Count", int64(3)), HaveField("Site", "allowed.test"))))
			Expect(ofType(after, events.View)).To(HaveLen(len(ofType(before, events.View))))
		},
		Entry("Googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", events.ReasonCrawler),
		Entry("Bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", events.ReasonCrawler),
		Entry("AhrefsBot", "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", events.ReasonCrawler),
		Entry("GPTBot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", events.ReasonCrawler),
		Entry("headless Chrome", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36", events.ReasonAutomation),
		Entry("PhantomJS", "Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1", events.ReasonAutomation),
		Entry("python-requests", "python-requests/2.31.0", events.ReasonAutomation),
		Entry("curl", "curl/8.5.0", events.ReasonAutomation),
		Entry("Go's HTTP client", "Go-http-client/1.1", events.ReasonAutomation),
		Entry("no user agent", "", events.ReasonAutomation),
	)
})

var _ = Describe("Browser orders", func() {
	It("count at most 3 a day per visitor with countBrowserOrders on, under a salt that is new each day", func() {
		ix := newEventIndex("ev-browser-on", true)
		for i := 0; i < 4; i++ {
			code, _, body := ix.browserEvents(server, chromeDesktop, batch(purchase("b-on-"+string(rune('a'+i)), "browser-on")), nil)
			Expect(code).To(Equal(http.StatusAccepted), body)
		}
		orders := ix.ordersWith("browser-on")
		Expect(orders).To(HaveLen(4))
		counted := 0
		for _, o := range orders {
			Expect(o.Source).To(Equal(events.FromBrowser))
			Expect(o.Visitor).To(HaveLen(64))
			if o.Counts {
				counted++
			}
		}
		Expect(counted).To(Equal(3))

		By("using a new salt doc the next day, so the same visitor is another hash and counts again")
		today := eventsNow()
		shiftClock(24 * time.Hour)
		code, _, body := ix.browserEvents(server, chromeDesktop, batch(purchase("b-on-next-day", "browser-next")), nil)
		Expect(code).To(Equal(http.StatusAccepted), body)
		next := ix.ordersWith("browser-next")
		Expect(next).To(ConsistOf(HaveField("Counts", true)))
		Expect(next[0].Visitor).NotTo(Equal(orders[0].Visitor))
		control := rawDocs(ix.names.Control())
		Expect(control).To(HaveKey(events.SaltID(today)))
		Expect(control).To(HaveKey(events.SaltID(today.Add(24 * time.Hour))))
		Expect(control[events.SaltID(today)]).NotTo(Equal(control[events.SaltID(today.Add(24*time.Hour))]))
	})

	It("never count with countBrowserOrders off, and still appear as purchases", func() {
		ix := newEventIndex("ev-browser-off", false)
		for i := 0; i < 4; i++ {
			code, _, body := ix.browserEvents(server, chromeDesktop, batch(purchase("b-off-"+string(rune('a'+i)), "browser-off")), nil)
			Expect(code).To(Equal(http.StatusAccepted), body)
		}
		Expect(ix.ordersWith("browser-off")).To(HaveLen(4))
		Expect(ix.ordersWith("browser-off")).To(HaveEach(SatisfyAll(HaveField("Counts", false), HaveField("Visitor", ""))))
		Expect(ix.purchasesOf("browser-off")).To(HaveLen(4))
	})
})

var _ = Describe("What events store", func() {
	It("never holds an IP address, a user agent or an order ID", func() {
		ix := newEventIndex("ev-privacy", true)
		const ua = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
		body := batch(goodView, goodClick, purchase("ORDER-SECRET-4711", "privacy-a"),
			`{"type": "addToCart", "currency": "EUR", "items": [{"objectID": "privacy-a", "quantity": 2, "price": 5}]}`)
		req, err := http.NewRequest(http.MethodPost, replicas[1]+ix.public, strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Content-Type", "text/plain")
		req.Header.Set("Origin", allowedOrigin)
		req.Header.Set("User-Agent", ua)
		res, err := http.DefaultClient.Do(req)
		Expect(err).NotTo(HaveOccurred())
		answer, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		Expect(res.StatusCode).To(Equal(http.StatusAccepted), string(answer))
		code, _, _ := ix.postEvents(batch(purchase("ORDER-SECRET-4712", "privacy-b"), `{"type": "cancel", "orderID": "ORDER-SECRET-4712"}`))
		Expect(code).To(Equal(http.StatusAccepted))

		var all bytes.Buffer
		for _, pattern := range []string{ix.names.EventsPattern(), ix.names.Orders(), ix.names.Control()} {
			docs := rawDocs(pattern)
			Expect(docs).NotTo(BeEmpty(), pattern)
			for id, doc := range docs {
				all.WriteString(id + " " + doc + "\n")
			}
		}
		Expect(all.String()).To(ContainSubstring("privacy-a"), "the probe reads the documents written")
		for _, secret := range []string{"127.0.0.1", "Gecko", "Firefox", "ORDER-SECRET"} {
			Expect(all.String()).NotTo(ContainSubstring(secret))
		}
	})
})
