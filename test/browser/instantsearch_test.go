package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/apikey"
)

// shopIndex is the index of web/examples' page: brand and colour facets for refinement
// lists, price for the slider, one card per groupId, browsers shown what is in stock.
const shopIndex = "shop"

// lanterns are the page's records: 15 in stock match "lantern" (the battery through its
// description only) in 10 groups; besides, one out of stock and a tent.
var lanterns = []product{
	{"camp-red", "Camping lantern", "", "Acme", "red", 20, "camp", true},
	{"camp-blue", "Camping lantern", "", "Acme", "blue", 21, "camp", true},
	{"camp-green", "Camping lantern", "", "Acme", "green", 22, "camp", true},
	{"storm-black", "Storm lantern", "", "Acme", "black", 35, "storm", true},
	{"storm-red", "Storm lantern", "", "Acme", "red", 36, "storm", true},
	{"solar-white", "Solar lantern", "", "Globex", "white", 15, "solar", true},
	{"solar-black", "Solar lantern", "", "Globex", "black", 16, "solar", true},
	{"pocket-red", "Pocket lantern", "", "Globex", "red", 9, "pocket", true},
	{"hanging-black", "Hanging lantern", "", "Initech", "black", 48, "hanging", true},
	{"paper-white", "Paper lantern", "", "Initech", "white", 5, "paper", true},
	{"paper-red", "Paper lantern", "", "Initech", "red", 6, "paper", true},
	{"stand-black", "Lantern stand", "", "Acme", "black", 60, "stand", true},
	{"dynamo-blue", "Dynamo lantern", "", "Hooli", "blue", 28, "dynamo", true},
	{"globe-white", "Globe lantern", "", "Global Lights", "white", 30, "globe", true},
	{"battery", "Rechargeable battery", "Powers any lantern", "Globex", "white", 12, "battery", true},
	{"old-black", "Old lantern", "", "Acme", "black", 99, "old", false},
	{"tent-green", "Camping tent", "", "Acme", "green", 120, "tent", true},
}

type product struct {
	ObjectID, Name, Description, Brand, Color string
	Price                                     int
	GroupID                                   string
	InStock                                   bool
}

// widgets is what the page's widgets showed after a step (instantsearch.mjs).
type widgets struct {
	Stats   string
	Banners []string
	Hits    []struct {
		ObjectID, Group, NameHTML, Brand string
		Pinned                           bool
		Swatches                         []string
	}
	Brand, Color []struct {
		Label, HTML string
		Count       int
		Checked     bool
	}
	Slider []struct{ Min, Max, Now int }
	Pages  []string
	Page   string
	Errors []string
}

// counts are the refinement list's label → count.
func (s widgets) counts(list string) map[string]int {
	items := s.Brand
	if list == "color" {
		items = s.Color
	}
	out := map[string]int{}
	for _, it := range items {
		out[it.Label] = it.Count
	}
	return out
}

// matching are the records public search shows for "lantern": in stock, the word in the
// name or the description, and of brands when given.
func matching(brands ...string) []product {
	var out []product
	for _, p := range lanterns {
		text := strings.ToLower(p.Name + " " + p.Description)
		if p.InStock && strings.Contains(text, "lantern") && (len(brands) == 0 || slices.Contains(brands, p.Brand)) {
			out = append(out, p)
		}
	}
	return out
}

// facetCounts counts records by brand or colour; groups counts the groups.
func facetCounts(ps []product, color bool) map[string]int {
	out := map[string]int{}
	for _, p := range ps {
		if color {
			out[p.Color]++
		} else {
			out[p.Brand]++
		}
	}
	return out
}

func groups(ps []product) map[string][]string {
	out := map[string][]string{}
	for _, p := range ps {
		out[p.GroupID] = append(out[p.GroupID], p.ObjectID)
	}
	return out
}

func priceBounds(ps []product) (lo, hi int) {
	lo, hi = ps[0].Price, ps[0].Price
	for _, p := range ps {
		lo, hi = min(lo, p.Price), max(hi, p.Price)
	}
	return lo, hi
}

var _ = Describe("web/examples' search page: InstantSearch widgets on Aisle (issue 22)", func() {
	It("shows the records' disjunctive counts, price bounds, grouped variants, a pinned product with its banner, pages and facet value search", func(ctx SpecContext) {
		port := serveWeb()
		origin := fmt.Sprintf("http://localhost:%d", port)
		publicID, writeKey := createShopIndex(ctx, shopIndex, origin)

		By("writing the records and a rule pinning the battery first, with a banner, for lantern")
		base := "/api/teams/" + env.Workspace + "/indexes/" + shopIndex
		records, err := json.Marshal(map[string]any{"records": recordsOf(lanterns)})
		Expect(err).NotTo(HaveOccurred())
		status, answer := callFor(http.MethodPost, base+"/records", writeKey, string(records), nil)
		Expect(status).To(Equal(http.StatusAccepted), answer)
		const banner = "Free batteries with every lantern this week"
		Expect(call(http.MethodPut, base+"/rules/lantern-battery", writeKey, `{"objectID": "lantern-battery",
			"conditions": [{"pattern": "lantern", "anchoring": "contains"}],
			"consequence": {"promote": [{"objectID": "battery", "position": 1}], "userData": {"banner": "`+banner+`"}}}`, nil)).
			To(Equal(http.StatusOK))
		Eventually(func(g Gomega) {
			g.Expect(publicTotal(g, publicID, origin, `{"q": "lantern"}`)).To(BeNumerically("==", len(groups(matching()))))
		}).WithTimeout(time.Minute).WithPolling(time.Second).Should(Succeed(), "public search allows 240 requests a minute a visitor")

		dir := os.Getenv("AISLE_SCREENSHOTS")
		if dir == "" {
			dir = GinkgoT().TempDir()
		}
		var res struct {
			Searched, Page2, Page3, OneBrand, TwoBrands, FacetSearch widgets
			Console                                                  []string
		}
		runNode("instantsearch.mjs", map[string]any{
			"url":   origin + "/examples/index.html?" + url.Values{"api": {env.BaseURL}, "publicId": {publicID}}.Encode(),
			"query": "lantern", "brands": []string{"Acme", "Globex"}, "facetQuery": "glo",
			"screenshot": filepath.Join(dir, "instantsearch-page.png"),
		}, &res)
		all := matching()

		By("counting each brand and colour as the records do, and the groups in the stats")
		s := res.Searched
		Expect(s.Errors).To(BeEmpty(), "console: %v", res.Console)
		Expect(s.counts("brand")).To(Equal(facetCounts(all, false)))
		Expect(s.counts("color")).To(Equal(facetCounts(all, true)))
		Expect(s.Stats).To(Equal(fmt.Sprintf("%d products", len(groups(all)))))

		By("bounding the slider by the price's facetStats")
		lo, hi := priceBounds(all)
		Expect(s.Slider).To(HaveLen(2))
		Expect([]int{s.Slider[0].Min, s.Slider[1].Max, s.Slider[0].Now, s.Slider[1].Now}).To(Equal([]int{lo, hi, lo, hi}))

		By("pinning the battery first and showing the rule's banner")
		Expect(s.Hits[0].ObjectID).To(Equal("battery"))
		Expect(s.Hits[0].Pinned).To(BeTrue())
		Expect(s.Banners).To(Equal([]string{banner}))

		By("showing each product once, with its group's other records as swatches, over 3 pages of 4")
		Expect(s.Pages).To(Equal([]string{"1", "2", "3"}))
		seen := map[string]bool{}
		for i, p := range []widgets{s, res.Page2, res.Page3} {
			Expect(p.Page).To(Equal(fmt.Sprint(i + 1)))
			for _, h := range p.Hits {
				Expect(seen).NotTo(HaveKey(h.Group), "group %s shown twice", h.Group)
				seen[h.Group] = true
				Expect(h.Swatches).To(ConsistOf(groups(all)[h.Group]), h.ObjectID)
				Expect(h.Pinned).To(Equal(h.ObjectID == "battery"))
				if h.ObjectID != "battery" {
					Expect(h.NameHTML).To(MatchRegexp(`(?i)<mark class="ais-Highlight-highlighted">lantern</mark>`))
				}
			}
		}
		Expect(seen).To(HaveLen(len(groups(all))))

		By("keeping the other brands' counts when one is chosen, and narrowing the rest to it")
		one := res.OneBrand
		acme := matching("Acme")
		Expect(one.counts("brand")).To(Equal(facetCounts(all, false)))
		Expect(one.counts("color")).To(Equal(facetCounts(acme, true)))
		Expect(one.Stats).To(Equal(fmt.Sprintf("%d products", len(groups(acme)))))
		for _, h := range one.Hits {
			Expect(h.Brand).To(Equal("Acme"))
		}
		lo, hi = priceBounds(acme)
		Expect([]int{one.Slider[0].Min, one.Slider[1].Max}).To(Equal([]int{lo, hi}))
		Expect(one.Banners).To(Equal([]string{banner}), "the rule applies; its Globex product is filtered out")

		By("ORing a second brand, the pinned battery (Globex) back first")
		two := res.TwoBrands
		both := matching("Acme", "Globex")
		Expect(two.counts("brand")).To(Equal(facetCounts(all, false)))
		Expect(two.Stats).To(Equal(fmt.Sprintf("%d products", len(groups(both)))))
		Expect(two.Hits[0].ObjectID).To(Equal("battery"))

		By("searching brand values: the prefix matched, counted within the search")
		var found []string
		for _, it := range res.FacetSearch.Brand {
			found = append(found, fmt.Sprintf("%s %d %s", it.Label, it.Count, it.HTML))
		}
		counts := facetCounts(all, false)
		Expect(found).To(ConsistOf(
			fmt.Sprintf("Globex %d <mark>Glo</mark>bex", counts["Globex"]),
			fmt.Sprintf("Global Lights %d <mark>Glo</mark>bal Lights", counts["Global Lights"])))
	})
})

func recordsOf(ps []product) []map[string]any {
	out := make([]map[string]any, len(ps))
	for i, p := range ps {
		out[i] = map[string]any{"objectID": p.ObjectID, "name": p.Name, "brand": p.Brand, "color": p.Color,
			"price": p.Price, "groupId": p.GroupID, "inStock": p.InStock}
		if p.Description != "" {
			out[i]["description"] = p.Description
		}
	}
	return out
}

// serveWeb serves web/ (the example, the adapter and instantsearch.js from web's
// node_modules) on a loopback port and returns the port.
func serveWeb() int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	srv := &http.Server{Handler: http.FileServer(http.Dir(filepath.Join(root, "web")))}
	go func() { _ = srv.Serve(ln) }()
	DeferCleanup(srv.Close)
	return ln.Addr().(*net.TCPAddr).Port
}

// createShopIndex creates a shop index named name, public to origin, and a write key for
// it; returns its public ID and the key once both are ready.
func createShopIndex(ctx context.Context, name, origin string) (string, string) {
	c := kubeClient()
	ns := env.Workspace
	fields := func(f ...string) []searchv1alpha1.FieldPath {
		out := make([]searchv1alpha1.FieldPath, len(f))
		for i, s := range f {
			out[i] = searchv1alpha1.FieldPath(s)
		}
		return out
	}
	idx := &searchv1alpha1.SearchIndex{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: searchv1alpha1.SearchIndexSpec{
			AllowedOrigins: []searchv1alpha1.Origin{searchv1alpha1.Origin(origin)},
			DeletionPolicy: "Delete",
			Settings: searchv1alpha1.IndexSettings{
				Language:         "en",
				SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
				FilterableFields: fields("brand", "color", "price", "inStock", "groupId"),
				FacetFields:      fields("brand", "color", "price"),
				Distinct:         &searchv1alpha1.DistinctSetting{Field: "groupId", Limit: 1},
			},
			PublicAccess: &searchv1alpha1.PublicAccess{Policy: &searchv1alpha1.PublicSearchPolicy{
				MaxHits: 20, RetrievableFields: fields("objectID", "name", "brand", "color", "price", "groupId"),
				ForcedFilters: []searchv1alpha1.FilterCondition{{Field: "inStock", Values: []string{"true"}}},
				AllowedFacets: fields("brand", "color", "price"), AllowedFilters: fields("brand", "color", "price"),
			}},
		}}
	Expect(c.Create(ctx, idx)).To(Succeed())
	key := &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-write"},
		Spec: searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{"write"}, Indexes: []string{name}}}
	Expect(c.Create(ctx, key)).To(Succeed())
	var publicID, secret string
	Eventually(func(g Gomega) {
		g.Expect(c.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, idx)).To(Succeed())
		g.Expect(idx.Status.PublicID).NotTo(BeEmpty())
		publicID = idx.Status.PublicID
		g.Expect(c.Get(ctx, types.NamespacedName{Namespace: ns, Name: key.Name}, key)).To(Succeed())
		g.Expect(key.Status.SecretName).NotTo(BeEmpty())
		var s corev1.Secret
		g.Expect(c.Get(ctx, types.NamespacedName{Namespace: ns, Name: key.Status.SecretName}, &s)).To(Succeed())
		secret = string(s.Data[apikey.SecretKey])
		g.Expect(call(http.MethodGet, "/api/teams/"+ns+"/indexes/"+name+"/indexing", secret, "", nil)).To(Equal(http.StatusOK))
	}).WithTimeout(time.Minute).Should(Succeed())
	return publicID, secret
}

// publicTotal is the total of a public search of the shop index from origin.
func publicTotal(g Gomega, publicID, origin, body string) int64 {
	req, err := http.NewRequest(http.MethodPost, env.BaseURL+"/api/public/indexes/"+publicID+"/search", strings.NewReader(body))
	g.Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", origin)
	resp, err := http.DefaultClient.Do(req)
	g.Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	g.Expect(err).NotTo(HaveOccurred())
	g.Expect(resp.StatusCode).To(Equal(http.StatusOK), string(raw))
	var res struct{ Total int64 }
	g.Expect(json.Unmarshal(raw, &res)).To(Succeed())
	return res.Total
}
