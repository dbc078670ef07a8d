package browser

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// drove is what events.mjs reports of a scenario.
type drove struct {
	Requests []struct {
		Method      string `json:"method"`
		Type        string `json:"type"`
		ContentType string `json:"contentType"`
	} `json:"requests"`
	Console []string `json:"console"`

	ClosedWith, NavigatedWith int

	HeldBefore, SentBeforeConsent, HeldAfterNavigation int
	ConsentAt                                          int64
	HeldAfterConsent, HeldBeforeRefusal                int
	HeldAfterRefusal, HeldOnNextPage                   int

	Events, Search, Together string
	PerHundred               []float64

	Unlabelled    []string
	TabsToKey     int
	TabOrder      []string
	Axe, PhoneAxe []string
	First, Second shown
	Stored        struct{ Session, Local []string }
	XSS           string
	Dialogs       int
	SentMore      int
	PhoneOverflow int
}

// shown is what the Events page showed.
type shown struct {
	Figures   map[string]string    `json:"figures"`
	Names     []string             `json:"names"`
	Lists     map[string][]string  `json:"lists"`
	Revenue   [][2]string          `json:"revenue"`
	Charts    map[string][]float64 `json:"charts"`
	Refreshes int                  `json:"refreshes"`

	SearchChart []float64             `json:"searchChart"`
	SearchRows  map[string][][]string `json:"searchRows"`
	StudioLinks []string              `json:"studioLinks"`
}

// drive runs one scenario of events.mjs in a fresh Chromium.
func drive(args map[string]any) drove {
	var d drove
	runNode("events.mjs", args, &d)
	return d
}

// shop is a shop page of origin that sends through p.
func shop(origin string, p *proxy, publicID, mode string) string {
	return origin + "/shop?" + url.Values{"api": {p.URL}, "publicId": {publicID}, "events": {mode}}.Encode()
}

// stored returns the event documents the engine holds for the products ids.
func stored(ids ...string) []events.EventDoc {
	return storedBy("objectID", ids...)
}

// storedBy returns the event documents the engine holds whose field is one of values.
func storedBy(field string, values ...string) []events.EventDoc {
	body, err := json.Marshal(map[string]any{"size": 1000, "query": map[string]any{"terms": map[string]any{field: values}}})
	Expect(err).NotTo(HaveOccurred())
	resp, err := http.Post(env.EngineURL+"/"+esnames.For(env.Workspace, "products").EventsPattern()+"/_search", "application/json", bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil // no event index yet
	}
	Expect(resp.StatusCode).To(Equal(http.StatusOK))
	var res struct {
		Hits struct {
			Hits []struct {
				Source events.EventDoc `json:"_source"`
			} `json:"hits"`
		} `json:"hits"`
	}
	Expect(json.NewDecoder(resp.Body).Decode(&res)).To(Succeed())
	docs := make([]events.EventDoc, 0, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		docs = append(docs, h.Source)
	}
	return docs
}

// keyedTogether reads GET /lists/together/{objectID} with the search key.
func keyedTogether(objectID string) string {
	req, err := http.NewRequest(http.MethodGet, env.BaseURL+indexPath()+"/lists/together/"+objectID, nil)
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+env.Keys["search"])
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return string(body)
}

func objectIDs(docs []events.EventDoc) []string {
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.ObjectID)
	}
	return ids
}

var _ = Describe("Shopper events from a web page", Ordered, func() {
	var origin, other, publicID string

	BeforeAll(func(ctx SpecContext) {
		port := servePage()
		origin, other = fmt.Sprintf("http://localhost:%d", port), fmt.Sprintf("http://127.0.0.1:%d", port)
		publicID = allowOrigin(ctx, origin)
		// The API server sees the new origin once its informer has it.
		Eventually(func() int {
			return call(http.MethodPost, "/api/public/indexes/"+publicID+"/search", "", `{"q": "x"}`, map[string]string{"Origin": origin})
		}).Should(Equal(http.StatusOK))
	})

	It("sends every kind of event as text/plain without a preflight, and they arrive with their fields", func() {
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "send", "shop": shop(origin, p, publicID, "on")})

		By("sending plain-text posts, and no OPTIONS request")
		Expect(p.requests(http.MethodOptions, "/events")).To(BeEmpty())
		posts := p.requests(http.MethodPost, "/events")
		Expect(posts).NotTo(BeEmpty())
		sent := 0
		for _, s := range posts {
			Expect(s.ContentType).To(HavePrefix("text/plain"))
			Expect(s.Status).To(Equal(http.StatusAccepted))
			Expect(s.Accepted).To(Equal(len(s.Events)))
			sent += len(s.Events)
		}
		Expect(sent).To(Equal(6))
		Expect(res.Requests).NotTo(BeEmpty(), "the browser's network log")
		for _, r := range res.Requests {
			Expect(r.Method).To(Equal(http.MethodPost))
			Expect(r.ContentType).To(HavePrefix("text/plain"))
		}

		By("storing them with the contract's fields, and nothing about the shopper")
		var docs []events.EventDoc
		Eventually(func() []events.EventDoc { docs = stored("a", "b"); return docs }).Should(HaveLen(4))
		Expect(docs).To(ContainElement(And(
			HaveField("Type", events.Click), HaveField("Query", "red shoe"), HaveField("Position", 1), HaveField("Source", events.FromBrowser),
			HaveField("Site", strings.TrimPrefix(origin, "http://")), HaveField("Device", "desktop"))))
		Expect(docs).To(ContainElement(And(HaveField("Type", events.Click), HaveField("List", events.Together), HaveField("From", "a"))))
		Expect(docs).To(ContainElement(And(HaveField("Type", events.View), HaveField("ObjectID", "b"))))
		var carts []events.EventDoc
		Eventually(func() []events.EventDoc { carts = storedBy("items.objectID", "a"); return carts }).Should(HaveLen(2))
		ten, five := 10.0, 5.0
		Expect(carts).To(ContainElement(And(HaveField("Type", events.AddToCart), HaveField("Currency", "EUR"),
			HaveField("Items", []events.Item{{ObjectID: "a", Quantity: 2, Price: &ten}}))))
		Expect(carts).To(ContainElement(And(HaveField("Type", events.Purchase), HaveField("Currency", "EUR"),
			HaveField("Revenue", 25.0), HaveField("Units", int64(3)), HaveField("Source", events.FromBrowser),
			HaveField("Items", []events.Item{{ObjectID: "a", Quantity: 2, Price: &ten}, {ObjectID: "b", Price: &five}}))))

		By("reading them back through /events/stats")
		Eventually(func(g Gomega) {
			s := statsOf(g)
			g.Expect(s.TopQueries).To(ContainElement(HaveField("Query", "red shoe")))
			g.Expect(s.ClicksByList).To(ContainElement(HaveField("Key", "together")))
			g.Expect(s.Sites).To(ContainElement(HaveField("Key", strings.TrimPrefix(origin, "http://"))))
			g.Expect(s.Revenue).To(ContainElement(And(HaveField("Currency", "EUR"), HaveField("Amount", BeNumerically(">=", 25)))))
			g.Expect(s.Totals.AddToCart).To(BeNumerically(">=", 1))
			g.Expect(s.Totals.Purchase).To(BeNumerically(">=", 1))
			g.Expect(s.Orders).To(BeNumerically(">=", 1))
		}).WithTimeout(3 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())
	})

	It("flushes the queue by beacon when the page closes or navigates away, losing nothing", func() {
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "close", "shop": shop(origin, p, publicID, "on"), "away": origin + "/away"})
		Expect(res.ClosedWith).To(Equal(5), "the views were still queued when the page closed")
		Expect(res.NavigatedWith).To(Equal(3))

		all := []string{"c1", "c2", "c3", "c4", "c5", "n1", "n2", "n3"}
		Eventually(p.sentViews).WithTimeout(10*time.Second).Should(ConsistOf(all), "requests: %+v", p.requests(http.MethodPost, "/events"))
		Expect(p.beaconViews()).To(ConsistOf(all), "sent by sendBeacon")
		for _, s := range p.requests(http.MethodPost, "/events") {
			Expect(s.ContentType).To(HavePrefix("text/plain"))
			Expect(s.Status).To(Equal(http.StatusAccepted))
		}
		Eventually(func() []string { return objectIDs(stored(all...)) }).Should(ConsistOf(all))
	})

	It("keeps for the next page what a closing page cannot hand to beacons, in requests under 60 KiB of UTF-8", func() {
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "overflow", "shop": shop(origin, p, publicID, "on")})
		Expect(res.ClosedWith).To(Equal(300))
		want := make([]string, 300)
		for i := range want {
			want[i] = fmt.Sprintf("%s-%d", strings.Repeat("商品", 100), i)
		}
		Expect(p.sentViews()).To(ConsistOf(want), "each once")
		beacons := p.beaconViews()
		Expect(beacons).NotTo(BeEmpty())
		Expect(len(beacons)).To(BeNumerically("<", 300), "64 KiB of beacons cannot carry them all")
		for _, s := range p.requests(http.MethodPost, "/events") {
			Expect(s.Bytes).To(BeNumerically("<", 60*1024))
			Expect(len(s.Events)).To(BeNumerically("<=", 100))
			Expect(s.Status).To(Equal(http.StatusAccepted))
			Expect(s.Accepted).To(Equal(len(s.Events)))
		}
	})

	It("sends the events of two tabs open at once, each once", func() {
		p := startProxy(env.BaseURL)
		drive(map[string]any{"scenario": "tabs", "shop": shop(origin, p, publicID, "on")})
		Expect(p.sentViews()).To(ConsistOf("ta1", "ta2", "ta3", "ta4", "tb1", "tb2", "tb3", "tb4"))
	})

	It("reads Bought together through the public lists endpoint", func() {
		By("seeding two products bought together in two orders")
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"],
			`{"records": [{"objectID": "tg-a", "name": "Tent", "inStock": true}, {"objectID": "tg-b", "name": "Tent pegs", "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))
		yesterday := time.Now().Add(-24 * time.Hour).UnixMilli()
		Expect(call(http.MethodPost, indexPath()+"/past-orders", env.Keys["write"], fmt.Sprintf(`{"orders": [
			{"orderID": "tg-o1", "timestamp": %d, "items": [{"objectID": "tg-a"}, {"objectID": "tg-b"}]},
			{"orderID": "tg-o2", "timestamp": %d, "items": [{"objectID": "tg-a"}, {"objectID": "tg-b"}]}]}`, yesterday, yesterday), nil)).
			To(Equal(http.StatusAccepted))
		Eventually(func() string { return keyedTogether("tg-a") }).WithTimeout(2 * time.Minute).WithPolling(2 * time.Second).Should(ContainSubstring(`"tg-b"`))

		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "together", "shop": shop(origin, p, publicID, "on"), "objectID": "tg-a"})
		var list events.TogetherList
		Expect(json.Unmarshal([]byte(res.Together), &list)).To(Succeed(), res.Together)
		Expect(list.ObjectID).To(Equal("tg-a"))
		Expect(list.Hits).To(ConsistOf(And(HaveField("ObjectID", "tg-b"), HaveField("SharedOrders", int64(2)))))
		Expect(p.requests(http.MethodGet, "/lists/together/tg-a")).To(HaveLen(1))
	})

	It("holds events until consent, across a navigation; consent(false) drops them", func() {
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "hold", "shop": shop(origin, p, publicID, "hold")})
		Expect(res.HeldBefore).To(Equal(3))
		Expect(res.SentBeforeConsent).To(BeZero())
		Expect(res.HeldAfterNavigation).To(Equal(3), "the held queue survives a navigation within the site")
		Expect(res.HeldAfterConsent).To(BeZero())
		Expect(res.HeldBeforeRefusal).To(Equal(2))
		Expect(res.HeldAfterRefusal).To(BeZero())
		Expect(res.HeldOnNextPage).To(BeZero())

		Expect(p.sentViews()).To(ConsistOf("h1", "h2", "h3"), "the held events, once; none after the refusal")
		for _, s := range p.requests(http.MethodPost, "/events") {
			Expect(s.At.UnixMilli()).To(BeNumerically(">=", res.ConsentAt))
		}
		Eventually(func() []string { return objectIDs(stored("h1", "h2", "h3", "d1", "d2", "d3")) }).Should(ConsistOf("h1", "h2", "h3"))
	})

	It("waits Retry-After on 429, backs off on 503, and sends nothing twice after a success", func() {
		p := startProxy(env.BaseURL, http.StatusTooManyRequests, http.StatusServiceUnavailable)
		drive(map[string]any{"scenario": "retry", "shop": shop(origin, p, publicID, "on")})

		posts := p.requests(http.MethodPost, "/events")
		Expect(posts).To(HaveLen(3))
		Expect([]int{posts[0].Status, posts[1].Status, posts[2].Status}).To(Equal([]int{429, 503, 202}))
		Expect(posts[1].Events).To(Equal(posts[0].Events))
		Expect(posts[2].Events).To(Equal(posts[0].Events))
		Expect(posts[1].At.Sub(posts[0].At)).To(BeNumerically(">=", 2*time.Second), "Retry-After: 2")
		Expect(posts[2].At.Sub(posts[1].At)).To(BeNumerically(">=", 500*time.Millisecond), "the first backoff")
		Eventually(func() []string { return objectIDs(stored("r1", "r2", "r3")) }).Should(ConsistOf("r1", "r2", "r3"))
	})

	It("is refused by the browser on an origin the index does not allow", func() {
		p := startProxy(env.BaseURL)
		res := drive(map[string]any{"scenario": "other", "shop": shop(other, p, publicID, "on"), "api": p.URL, "publicId": publicID})
		Expect(res.Events).To(ContainSubstring("Failed to fetch"))
		Expect(res.Search).To(ContainSubstring("Failed to fetch"))
		posts := p.requests(http.MethodPost, "/events")
		Expect(posts).NotTo(BeEmpty())
		for _, s := range posts {
			Expect(s.Status).To(Equal(http.StatusForbidden))
		}
		Expect(p.sentViews()).To(ContainElement("refused-1"), "the client's own events reach the server, which refuses them")
		Expect(stored("refused-1")).To(BeEmpty())
	})
})

var _ = Describe("The browser client package", func() {
	It("passes its own tests and stays within its size budget", func() {
		for _, args := range [][]string{{"--test", "test/"}, {"size.mjs"}} {
			cmd := exec.Command("node", args...)
			cmd.Dir = filepath.Join(root, "web")
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "node %v: %s", args, out)
		}
	})
})
