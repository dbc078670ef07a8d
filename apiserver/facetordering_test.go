package apiserver_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// renderingOf is the renderingContent of a keyed search of body through replica i ("null"
// when the answer has none).
func renderingOf(i int, ci catalogIndex, body string) string {
	GinkgoHelper()
	r := call(i, http.MethodPost, ci.base+"/search", ci.searchKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var ans struct {
		RenderingContent json.RawMessage `json:"renderingContent"`
	}
	Expect(json.Unmarshal(r.body, &ans)).To(Succeed())
	if ans.RenderingContent == nil {
		return "null"
	}
	return string(ans.RenderingContent)
}

var _ = Describe("Facet ordering (issue 36)", Ordered, func() {
	const ordering = `{"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["Pine"], "sortRemainingBy": "alpha", "hide": ["Acme"]}}}`
	const lampOrdering = `{"facets": {"order": ["brand"]}, "values": {"brand": {"order": ["Oak"], "sortRemainingBy": "hidden"}}}`
	var ci catalogIndex
	BeforeAll(func() { ci = newRulesIndex() })

	It("is absent from answers until it is set", func() {
		Expect(renderingOf(0, ci, `{"q": "lamp"}`)).To(Equal("null"))
	})

	It("is a setting applied at once, returned with every answer as renderingContent", func() {
		r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, configSetting(ci, "facetOrdering", ordering))
		Expect(r.status).To(Equal(http.StatusOK), string(r.body))
		var ans struct {
			Applied       []string        `json:"applied"`
			FacetOrdering json.RawMessage `json:"facetOrdering"`
		}
		Expect(json.Unmarshal(r.body, &ans)).To(Succeed())
		Expect(ans.Applied).To(Equal([]string{"facetOrdering"}))
		Expect(ans.FacetOrdering).To(MatchJSON(ordering))
		for i := range 2 {
			Eventually(func() string { return renderingOf(i, ci, `{"q": "desk", "facets": ["brand"]}`) }).Should(MatchJSON(`{"facetOrdering": ` + ordering + `}`))
		}
	})

	It("is replaced by the renderingContent of a rule for the searches it applies to", func() {
		putRules(ci, `{"objectID": "lamps", "conditions": [{"pattern": "lamp", "anchoring": "contains"}],
			"consequence": {"renderingContent": {"facetOrdering": `+lampOrdering+`}}}`)
		Expect(renderingOf(0, ci, `{"q": "paper lamp"}`)).To(MatchJSON(`{"facetOrdering": ` + lampOrdering + `}`))
		Expect(renderingOf(0, ci, `{"q": "desk"}`)).To(MatchJSON(`{"facetOrdering": ` + ordering + `}`))
		Expect(renderingOf(0, ci, `{"q": "paper lamp", "enableRules": false}`)).To(MatchJSON(`{"facetOrdering": ` + ordering + `}`))
	})

	It("refuses an ordering naming fields that are not facet fields, in the settings and in rules, changing nothing", func() {
		expectRefused(call(0, http.MethodPut, ci.base+"/config", ci.writeKey, configSetting(ci, "facetOrdering",
			`{"facets": {"order": ["brand", "brand"]}, "values": {"size": {"order": ["S"], "hide": ["S"]}}}`)),
			http.StatusBadRequest, `invalid settings: facetOrdering.facets.order[1]: "brand" is listed twice; `+
				`facetOrdering.values.size: "size" is not a facet field (facet fields: brand); `+
				`facetOrdering.values.size.hide[0]: "S" is also in order: a value is pinned or hidden`)
		expectRefused(call(0, http.MethodPut, ci.base+"/rules/bad", ci.writeKey, []byte(
			`{"consequence": {"renderingContent": {"facetOrdering": {"values": {"brand": {"sortRemainingBy": "random"}}}}}}`)),
			http.StatusBadRequest, "invalid rule: consequence.renderingContent.facetOrdering.values.brand.sortRemainingBy: must be count, alpha or hidden")
		Expect(renderingOf(0, ci, `{"q": "desk"}`)).To(MatchJSON(`{"facetOrdering": ` + ordering + `}`))
	})
})
