package apiserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/apiserver"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
)

// The events service of every replica reads this clock: specs move it across days
// instead of sleeping.
var (
	clockMu    sync.Mutex
	clockShift time.Duration
)

func eventsNow() time.Time {
	clockMu.Lock()
	defer clockMu.Unlock()
	return time.Now().Add(clockShift)
}

// shiftClock moves the events clock by d until the spec ends.
func shiftClock(d time.Duration) {
	clockMu.Lock()
	clockShift += d
	clockMu.Unlock()
	DeferCleanup(func() {
		clockMu.Lock()
		clockShift -= d
		clockMu.Unlock()
	})
}

// eventIndex is a SearchIndex of the shop workspace that one spec sends events to.
type eventIndex struct {
	names    esnames.Index
	base     string // the index prefix
	public   string // the public events path
	key      string // a key with the events scope
	searches string // a key with the search scope
}

var eventIndexes sync.Map

// newEventIndex creates (once per name) an index in the shop workspace with its own
// keys, allowing allowedOrigin, with countBrowserOrders as given.
func newEventIndex(name string, countBrowserOrders bool) eventIndex {
	if v, ok := eventIndexes.Load(name); ok {
		return v.(eventIndex)
	}
	createIndexWith("shop", name, searchv1alpha1.IndexSettings{CountBrowserOrders: countBrowserOrders},
		[]searchv1alpha1.Origin{allowedOrigin}, nil)
	issueFor("ev-"+name, "shop", []searchv1alpha1.Scope{"events"}, []string{name}, nil, nil)
	issueFor("ev-search-"+name, "shop", []searchv1alpha1.Scope{"search"}, []string{name}, nil, nil)
	ix := eventIndex{
		names: esnames.For("shop", name), base: "/api/teams/shop/indexes/" + name,
		public: "/api/public/indexes/pub-shop-" + name + "/events", key: keys["ev-"+name], searches: keys["ev-search-"+name],
	}
	Eventually(func() int {
		return send(server, http.MethodPost, ix.base+"/events", ix.key, `{"events": []}`, nil).Code
	}).Should(Equal(http.StatusBadRequest))
	eventIndexes.Store(name, ix)
	return ix
}

// postEvents sends server events and returns the status and the decoded answer.
func (ix eventIndex) postEvents(body string) (int, events.Accepted, string) {
	return decodeAccepted(send(server, http.MethodPost, ix.base+"/events", ix.key, body, nil).Result())
}

// browserEvents sends events as a page does: text/plain, with Origin and a user agent.
func (ix eventIndex) browserEvents(s *apiserver.Server, userAgent, body string, headers map[string]string) (int, events.Accepted, string) {
	h := map[string]string{"Origin": allowedOrigin, "User-Agent": userAgent, "Content-Type": "text/plain;charset=UTF-8"}
	for k, v := range headers {
		h[k] = v
	}
	return decodeAccepted(send(s, http.MethodPost, ix.public, "", body, h).Result())
}

func decodeAccepted(res *http.Response) (int, events.Accepted, string) {
	raw, err := io.ReadAll(res.Body)
	Expect(err).NotTo(HaveOccurred())
	var acc events.Accepted
	if res.StatusCode == http.StatusAccepted {
		Expect(json.Unmarshal(raw, &acc)).To(Succeed())
	}
	return res.StatusCode, acc, string(raw)
}

// rawDocs returns the stored documents of indices matching pattern, as raw JSON by ID,
// after a refresh.
func rawDocs(pattern string) map[string]string {
	_, err := esClient.Indices.Refresh().Index(pattern).Do(ctx)
	if es.Classify(err) != nil {
		return map[string]string{}
	}
	res, err := esClient.Search().Index(pattern).Raw(strings.NewReader(`{"size": 10000, "query": {"match_all": {}}}`)).Do(ctx)
	Expect(err).NotTo(HaveOccurred())
	out := map[string]string{}
	for _, h := range res.Hits.Hits {
		out[*h.Id_] = string(h.Source_)
	}
	return out
}

// storedEvents decodes the event documents of ix.
func (ix eventIndex) storedEvents() []events.EventDoc {
	return decodeDocs[events.EventDoc](rawDocs(ix.names.EventsPattern()))
}

// storedOrders decodes the order documents of ix by ID.
func (ix eventIndex) storedOrders() map[string]events.OrderDoc {
	out := map[string]events.OrderDoc{}
	for id, raw := range rawDocs(ix.names.Orders()) {
		var d events.OrderDoc
		Expect(json.Unmarshal([]byte(raw), &d)).To(Succeed())
		out[id] = d
	}
	return out
}

func decodeDocs[T any](raw map[string]string) []T {
	out := make([]T, 0, len(raw))
	for _, r := range raw {
		var d T
		Expect(json.Unmarshal([]byte(r), &d)).To(Succeed())
		out = append(out, d)
	}
	return out
}

func ofType(docs []events.EventDoc, t events.Type) []events.EventDoc {
	var out []events.EventDoc
	for _, d := range docs {
		if d.Type == t {
			out = append(out, d)
		}
	}
	return out
}

// batch renders events as a request body.
func batch(evs ...string) string {
	return `{"events": [` + strings.Join(evs, ",") + `]}`
}

// repeat renders n copies of an event.
func repeat(ev string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = ev
	}
	return out
}

// purchase renders a purchase of products.
func purchase(orderID string, products ...string) string {
	items := make([]string, len(products))
	for i, p := range products {
		items[i] = fmt.Sprintf(`{"objectID": %q, "quantity": 1, "price": 10}`, p)
	}
	return fmt.Sprintf(`{"type": "purchase", "orderID": %q, "currency": "EUR", "items": [%s]}`, orderID, strings.Join(items, ","))
}

// eventServer builds an API server on the first replica's registry whose events go
// through svc, under limits.
func eventServer(svc *events.Service, limits apiserver.EventLimits, countries *events.Countries) *apiserver.Server {
	s := apiserver.New(apiserver.Config{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Events: svc, EventLimits: limits, Countries: countries,
	}, registry)
	s.SetReady(true)
	return s
}
