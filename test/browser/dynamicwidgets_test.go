package browser

import (
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// dynamicIndex is the index of web/examples/react's page.
const dynamicIndex = "dynshop"

// facetsOnPage is what dynamicwidgets.mjs read after each ordering: the facets shown, in
// order, with their values.
type facetsOnPage struct {
	Steps [][]struct {
		Facet  string
		Values []string
	}
	Console []string
}

var _ = Describe("web/examples/react: React InstantSearch's DynamicWidgets on Aisle (issue 36)", func() {
	It("shows the facets and their values in the order of the index's facetOrdering, and follows it when PUT /config changes it", func(ctx SpecContext) {
		By("bundling the page as its README says")
		build := exec.Command("npm", "run", "--silent", "--prefix", filepath.Join(root, "web"), "example:react")
		printed, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(printed))

		port := serveWeb()
		origin := fmt.Sprintf("http://localhost:%d", port)
		publicID, writeKey := createShopIndex(ctx, dynamicIndex, origin)
		base := "/api/teams/" + env.Workspace + "/indexes/" + dynamicIndex
		Expect(call(http.MethodPost, base+"/records", writeKey, `{"records": [
			{"objectID": "d1", "name": "Desk lamp", "brand": "Acme", "color": "red", "price": 10, "groupId": "d1", "inStock": true},
			{"objectID": "d2", "name": "Floor lamp", "brand": "Acme", "color": "red", "price": 20, "groupId": "d2", "inStock": true},
			{"objectID": "d3", "name": "Wall lamp", "brand": "Acme", "color": "blue", "price": 30, "groupId": "d3", "inStock": true},
			{"objectID": "d4", "name": "Paper lamp", "brand": "Globex", "color": "white", "price": 5, "groupId": "d4", "inStock": true},
			{"objectID": "d5", "name": "Glass lamp", "brand": "Globex", "color": "blue", "price": 40, "groupId": "d5", "inStock": true},
			{"objectID": "d6", "name": "Brass lamp", "brand": "Initech", "color": "white", "price": 50, "groupId": "d6", "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))
		Eventually(func(g Gomega) {
			g.Expect(publicTotal(g, publicID, origin, `{"q": ""}`)).To(BeNumerically("==", 6))
		}).WithTimeout(time.Minute).WithPolling(time.Second).Should(Succeed())

		var res facetsOnPage
		runNode("dynamicwidgets.mjs", map[string]any{
			"url":        origin + "/examples/react/index.html?" + url.Values{"api": {env.BaseURL}, "publicId": {publicID}}.Encode(),
			"configPath": base + "/config", "apiBase": env.BaseURL, "writeKey": writeKey,
			"orderings": []any{
				map[string]any{"facets": map[string]any{"order": []string{"brand", "color"}}},
				map[string]any{"facets": map[string]any{"order": []string{"color", "brand"}},
					"values": map[string]any{"brand": map[string]any{"order": []string{"Initech"}, "sortRemainingBy": "alpha"},
						"color": map[string]any{"order": []string{"white", "blue"}, "sortRemainingBy": "hidden"}}},
				map[string]any{"facets": map[string]any{"order": []string{"color"}}},
			},
		}, &res)
		Expect(res.Console).To(BeEmpty())
		Expect(res.Steps).To(HaveLen(3))
		type shown struct {
			Facet  string
			Values []string
		}
		steps := make([][]shown, len(res.Steps))
		for i, s := range res.Steps {
			for _, f := range s {
				steps[i] = append(steps[i], shown(f))
			}
		}

		By("ordering the facets as facets.order lists them, and each one's values by count")
		Expect(steps[0]).To(Equal([]shown{{"brand", []string{"Acme", "Globex", "Initech"}}, {"color", []string{"blue", "red", "white"}}}))

		By("following a new order: the facets swapped, values pinned first, the rest alphabetically or not at all")
		Expect(steps[1]).To(Equal([]shown{{"color", []string{"white", "blue"}}, {"brand", []string{"Initech", "Acme", "Globex"}}}))

		By("leaving out a facet the order does not name")
		Expect(steps[2]).To(Equal([]shown{{"color", []string{"blue", "red", "white"}}}))
	})
})
