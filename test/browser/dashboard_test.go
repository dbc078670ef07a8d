package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/esnames"
	"github.com/aislehq/aisle/internal/events"
	"github.com/aislehq/aisle/internal/searchlog"
)

func indexPath() string {
	return "/api/teams/" + env.Workspace + "/indexes/products"
}

// pageStats is the body of GET /events/stats: the events' figures and the Searches
// section.
type pageStats struct {
	events.Stats
	Searches searchlog.Stats `json:"searches"`
}

// statsOf reads GET /events/stats of the sample index with the search key.
func statsOf(g Gomega) pageStats {
	req, err := http.NewRequest(http.MethodGet, env.BaseURL+indexPath()+"/events/stats", nil)
	g.Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Authorization", "Bearer "+env.Keys["search"])
	resp, err := http.DefaultClient.Do(req)
	g.Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	g.Expect(resp.StatusCode).To(Equal(http.StatusOK))
	var s pageStats
	g.Expect(json.NewDecoder(resp.Body).Decode(&s)).To(Succeed())
	return s
}

// bulkViews is an engine _bulk body writing a server view event of each product, now,
// into the sample index's event index of this month.
func bulkViews(ids ...string) string {
	now := time.Now()
	docs := make([]events.EventDoc, 0, len(ids))
	for _, id := range ids {
		docs = append(docs, events.EventDoc{Type: events.View, Timestamp: now.UnixMilli(), Source: events.FromServer, ObjectID: id})
	}
	return bulkBody(docs...)
}

func bulkBody(docs ...events.EventDoc) string {
	var b strings.Builder
	for _, d := range docs {
		src, err := json.Marshal(d)
		Expect(err).NotTo(HaveOccurred())
		b.WriteString("{\"index\": {}}\n" + string(src) + "\n")
	}
	return b.String()
}

// eventsBulkURL is where bulkBody goes: this month's event index, created with the
// schema's mapping by ensureEventsIndex. The events of these specs are written straight
// into the engine, as the server records them, so the page's figures are the server's.
func eventsBulkURL() string {
	return env.EngineURL + "/" + esnames.For(env.Workspace, "products").Events(time.Now()) + "/_bulk?refresh=true"
}

func ensureEventsIndex() {
	index := esnames.For(env.Workspace, "products").Events(time.Now())
	req, err := http.NewRequest(http.MethodPut, env.EngineURL+"/"+index, strings.NewReader(events.EventMapping))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	_ = resp.Body.Close()
	Expect(resp.StatusCode).To(Or(Equal(http.StatusOK), Equal(http.StatusBadRequest)), "created, or already there")
}

func seedEvents(body string) {
	resp, err := http.Post(eventsBulkURL(), "application/x-ndjson", strings.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	var res struct{ Errors bool }
	Expect(json.NewDecoder(resp.Body).Decode(&res)).To(Succeed())
	Expect(resp.StatusCode).To(Equal(http.StatusOK))
	Expect(res.Errors).To(BeFalse())
}

const scriptName = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">`

var _ = Describe("The Events page", func() {
	It("shows the figures of /events/stats with a chart, refreshes by itself, and runs no record's script", func() {
		By("seeding a product whose name holds a script, and events naming it")
		record, err := json.Marshal(map[string]any{"records": []map[string]any{{"objectID": "xss-1", "name": scriptName, "inStock": true}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"], string(record), nil)).To(Equal(http.StatusAccepted))
		ensureEventsIndex()
		price := 7.5
		// A hundred views put it in the top ten whatever other specs viewed.
		// Clicks on recommendation lists: the page shows each list's clicks and products.
		trendingClick := events.EventDoc{Type: events.Click, Timestamp: time.Now().UnixMilli(), Source: events.FromServer,
			ObjectID: "xss-1", Position: 1, List: events.Trending}
		similarClick := trendingClick
		similarClick.List, similarClick.From = events.Similar, "xss-2"
		seedEvents(bulkViews(slices.Repeat([]string{"xss-1"}, 100)...) + bulkBody(events.EventDoc{
			Type: events.Purchase, Timestamp: time.Now().UnixMilli(), Source: events.FromServer,
			Items: []events.Item{{ObjectID: "xss-1", Quantity: 2, Price: &price}}, Currency: "USD", Revenue: 15, Units: 2,
		}, trendingClick, trendingClick, similarClick))
		By("searching, once for something no record holds")
		for _, q := range []string{"Dashboard Zzqx", "dashboard zzqx", ""} {
			Expect(call(http.MethodPost, indexPath()+"/search", env.Keys["search"], `{"q": "`+q+`"}`, nil)).To(Equal(http.StatusOK))
		}
		var want pageStats
		Eventually(func(g Gomega) {
			want = statsOf(g)
			g.Expect(want.Searches.NoResultQueries).To(ContainElement(searchlog.QueryCount{Query: "dashboard zzqx", Searches: 2}))
			g.Expect(want.TopProducts.View).To(ContainElement(HaveField("ObjectID", "xss-1")))
			g.Expect(want.Revenue).To(ContainElement(HaveField("Currency", "USD")))
			g.Expect(want.Lists).To(ContainElement(SatisfyAll(HaveField("List", events.Trending),
				HaveField("Products", ContainElement(HaveField("ObjectID", "xss-1"))))))
		}).WithTimeout(3 * time.Minute).WithPolling(5 * time.Second).Should(Succeed())

		// AISLE_SCREENSHOTS keeps the screenshots for a person to look at.
		dir := os.Getenv("AISLE_SCREENSHOTS")
		if dir == "" {
			dir = GinkgoT().TempDir()
		}
		shot, phone := filepath.Join(dir, "events-page.png"), filepath.Join(dir, "events-page-phone.png")
		res := drive(map[string]any{
			"scenario": "dashboard", "url": env.BaseURL + "/dashboard/?refresh=5", "key": env.Keys["write"],
			"screenshot": shot, "phoneShot": phone,
			"sendMore": map[string]string{"url": eventsBulkURL(), "contentType": "application/x-ndjson", "body": bulkViews("xss-1", "xss-1")},
		})

		By("showing the totals the stats endpoint gives")
		figures := map[string]int64{
			"totals.view": want.Totals.View, "totals.click": want.Totals.Click, "totals.addToCart": want.Totals.AddToCart,
			"totals.purchase": want.Totals.Purchase, "totals.cancel": want.Totals.Cancel,
			"orders": want.Orders, "cancelledOrders": want.CancelledOrders, "notRecorded": want.NotRecorded.Total,
		}
		for k, v := range figures {
			Expect(res.First.Figures).To(HaveKeyWithValue(k, strconv.FormatInt(v, 10)), k)
		}
		for _, r := range want.Revenue {
			Expect(res.First.Revenue).To(ContainElement([2]string{r.Currency, strconv.FormatFloat(r.Amount, 'f', -1, 64)}))
		}
		By("showing each recommendation list's clicks and the products most clicked from it")
		for _, l := range want.Lists {
			Expect(res.First.Figures).To(HaveKeyWithValue("lists."+string(l.List), strconv.FormatInt(l.Clicks, 10)), string(l.List))
			Expect(res.First.Lists).To(HaveKeyWithValue(string(l.List), HaveLen(len(l.Products))), string(l.List))
		}
		Expect(res.First.Lists[string(events.Trending)]).To(ContainElement(scriptName), "the product shown by its name, as text")
		By("drawing a chart of each event type with the daily figures of /events/stats")
		daily := map[string][]float64{}
		for _, d := range want.Daily {
			for k, v := range map[string]int64{"view": d.View, "click": d.Click, "addToCart": d.AddToCart, "purchase": d.Purchase, "cancel": d.Cancel} {
				daily[k] = append(daily[k], float64(v))
			}
		}
		Expect(res.First.Charts).To(Equal(daily))

		By("showing the Searches section: its figures, a chart of searches per day and the top searches")
		s := want.Searches
		for k, v := range map[string]int64{"searches": s.Searches, "noResults": s.NoResults, "clicks": s.Clicks} {
			Expect(res.First.Figures).To(HaveKeyWithValue("searches."+k, strconv.FormatInt(v, 10)), k)
		}
		Expect(res.First.Figures).To(HaveKeyWithValue("searches.clickThroughRate", strconv.FormatFloat(s.ClickThroughRate, 'f', -1, 64)))
		perDay := []float64{}
		for _, d := range s.Daily {
			perDay = append(perDay, float64(d.Searches))
		}
		Expect(res.First.SearchChart).To(Equal(perDay))
		Expect(res.First.SearchRows["search-top"]).To(HaveLen(len(s.TopQueries)))
		Expect(res.First.SearchRows["search-none"]).To(ContainElement([]string{"dashboard zzqx", "2"}))
		Expect(res.First.StudioLinks).To(ContainElement("studio.html?q=dashboard+zzqx&fix=noResults"), "a search without results opens the studio's preview and its fixes")

		By("showing the script as text, without running it")
		Expect(res.First.Names).To(ContainElement(scriptName))
		Expect(res.XSS).To(BeEmpty())
		Expect(res.Dialogs).To(BeZero())

		By("refreshing by itself after new events")
		Expect(res.SentMore).To(Equal(http.StatusOK))
		Expect(res.Second.Figures["totals.view"]).To(Equal(strconv.FormatInt(want.Totals.View+2, 10)))
		Expect(res.Second.Refreshes).To(BeNumerically(">", res.First.Refreshes))

		By("labelling every control, working from the keyboard, keeping the key in this tab only, and fitting a phone")
		Expect(res.Unlabelled).To(BeEmpty())
		Expect(res.TabsToKey).To(Equal(2), "the skip link, then the key")
		Expect(res.TabOrder).To(ContainElements("forget", "index", "from", "to", "show"))
		Expect(res.Axe).To(BeEmpty(), "axe-core: labels, names, contrast, landmarks")
		Expect(res.PhoneAxe).To(BeEmpty(), "axe-core on a phone")
		Expect(res.Stored.Session).To(ContainElement("aisle.dashboard.key"))
		Expect(res.Stored.Local).To(BeEmpty())
		Expect(res.PhoneOverflow).To(BeNumerically("<=", 0))
		for _, f := range []string{shot, phone} {
			png, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(png[:8]).To(Equal([]byte("\x89PNG\r\n\x1a\n")), f)
			AddReportEntry(fmt.Sprintf("screenshot %s", filepath.Base(f)), f)
		}
	})
})
