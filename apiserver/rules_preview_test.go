package apiserver_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rulePreview is the answer of POST /rules/{ruleId}/preview, as the specs read it.
type rulePreview struct {
	With    ruledResult `json:"with"`
	Without ruledResult `json:"without"`
}

// previewRule posts body to the preview of rule id with the write key; the answer is
// checked against the OpenAPI document.
func previewRule(ci catalogIndex, id, body string) rulePreview {
	GinkgoHelper()
	r := call(0, http.MethodPost, ci.base+"/rules/"+id+"/preview", ci.writeKey, []byte(body))
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var p rulePreview
	Expect(json.Unmarshal(r.body, &p)).To(Succeed())
	return p
}

var _ = Describe("The preview of a rule (issue 36)", Ordered, func() {
	var ci catalogIndex
	BeforeAll(func() {
		ci = newRulesIndex()
		putRules(ci, `{"objectID": "hide-l1", "conditions": [{"pattern": "lamp", "anchoring": "contains"}], "consequence": {"hide": ["l1"]}}`)
	})

	It("answers the page with a draft rule and without it, and saves nothing", func() {
		versions := versionsOf(0, ci.base+"/rules/history", ci.writeKey)
		plain := ruledSearch(ci, `{"q": "walnut desk"}`)
		p := previewRule(ci, "desk-pin", `{"q": "walnut desk", "rule": {"conditions": [{"pattern": "desk", "anchoring": "contains"}],
			"consequence": {"promote": [{"objectID": "l1", "position": 1}], "hide": ["d1"], "userData": {"banner": "Lamps"}}}}`)
		Expect(p.With.ids()).To(Equal(append([]string{"l1"}, without(plain.ids(), "d1")...)))
		Expect(p.With.Hits[0].Promoted).To(BeTrue())
		Expect(p.With.AppliedRules).To(Equal([]string{"desk-pin"}))
		Expect(p.With.UserData).To(HaveLen(1))
		Expect(p.With.UserData[0]).To(MatchJSON(`{"banner": "Lamps"}`))
		Expect(p.Without.ids()).To(Equal(plain.ids()))
		Expect(p.Without.AppliedRules).To(BeEmpty())

		Expect(call(1, http.MethodGet, ci.base+"/rules/desk-pin", ci.searchKey, nil).status).To(Equal(http.StatusNotFound))
		Expect(ruledSearch(ci, `{"q": "walnut desk"}`).ids()).To(Equal(plain.ids()))
		Expect(versionsOf(0, ci.base+"/rules/history", ci.writeKey)).To(Equal(versions))
	})

	It("previews the saved rule without a draft, and a draft in its place with one; the other rules apply to both pages", func() {
		saved := previewRule(ci, "hide-l1", `{"q": "lamp"}`)
		Expect(saved.With.ids()).To(Equal([]string{"l2"}))
		Expect(saved.With.AppliedRules).To(Equal([]string{"hide-l1"}))
		Expect(saved.Without.ids()).To(ConsistOf("l1", "l2"))

		draft := previewRule(ci, "hide-l1", `{"q": "lamp", "rule": {"conditions": [{"pattern": "lamp", "anchoring": "contains"}], "consequence": {"hide": ["l2"]}}}`)
		Expect(draft.With.ids()).To(Equal([]string{"l1"}))
		Expect(draft.Without.ids()).To(ConsistOf("l1", "l2"))

		other := previewRule(ci, "lamp-banner", `{"q": "lamp", "rule": {"conditions": [{"pattern": "lamp", "anchoring": "contains"}], "consequence": {"userData": {"banner": "b"}}}}`)
		Expect(other.With.AppliedRules).To(ConsistOf("hide-l1", "lamp-banner"))
		Expect(other.Without.AppliedRules).To(Equal([]string{"hide-l1"}))
		Expect(other.Without.ids()).To(Equal([]string{"l2"}))
	})

	It("applies a draft only when the search meets its conditions: filters and ruleContexts", func() {
		rule := `"rule": {"conditions": [{"context": "mobile", "filters": {"field": "brand", "eq": "Pine"}}], "consequence": {"hide": ["d2"]}}`
		met := previewRule(ci, "pine-mobile", `{"q": "desk", "facetFilters": {"brand": ["Pine"]}, "ruleContexts": ["mobile"], `+rule+`}`)
		Expect(met.Without.ids()).To(ContainElement("d2"))
		Expect(met.With.ids()).To(Equal(without(met.Without.ids(), "d2")))

		unmet := previewRule(ci, "pine-mobile", `{"q": "desk", "facetFilters": {"brand": ["Pine"]}, `+rule+`}`)
		Expect(unmet.With.ids()).To(Equal(unmet.Without.ids()))
		Expect(unmet.With.AppliedRules).To(BeEmpty())
	})

	It("answers why not for each page", func() {
		p := previewRule(ci, "hide-l1", `{"q": "lamp", "explain": {"objectID": "l1"}}`)
		Expect(p.With.ids()).NotTo(ContainElement("l1"))
		r := call(0, http.MethodPost, ci.base+"/rules/hide-l1/preview", ci.writeKey, []byte(`{"q": "lamp", "explain": {"objectID": "l1"}}`))
		var raw struct{ With, Without whyNotAnswer }
		Expect(json.Unmarshal(r.body, &raw)).To(Succeed())
		Expect(raw.With.WhyNot).NotTo(BeNil())
		Expect(raw.Without.WhyNot).NotTo(BeNil())
		Expect(raw.With.WhyNot.Reasons).To(ContainElement(HaveField("Reason", "hidden")))
		Expect(raw.Without.WhyNot.Position).NotTo(BeNil())
	})

	DescribeTable("refuses a broken draft with the message PUT /rules/{ruleId} gives",
		func(rule string) {
			put := call(0, http.MethodPut, ci.base+"/rules/bad", ci.writeKey, []byte(rule))
			Expect(put.status).To(Equal(http.StatusBadRequest), string(put.body))
			preview := call(0, http.MethodPost, ci.base+"/rules/bad/preview", ci.writeKey, []byte(`{"q": "desk", "rule": `+rule+`}`))
			Expect(preview.status).To(Equal(http.StatusBadRequest))
			Expect(preview.body).To(MatchJSON(put.body))
			Expect(call(0, http.MethodGet, ci.base+"/rules/bad", ci.writeKey, nil).status).To(Equal(http.StatusNotFound))
		},
		Entry("a member rules do not have", `{"consequence": {"hide": ["x"]}, "colour": "red"}`),
		Entry("a boost on a field that is not filterable", `{"consequence": {"boost": [{"filter": {"field": "name", "eq": "x"}}]}}`),
		Entry("another objectID than the path's", `{"objectID": "other", "consequence": {"hide": ["x"]}}`),
		Entry("a malformed context", `{"conditions": [{"context": "on mobile"}], "consequence": {"hide": ["x"]}}`),
		Entry("no consequence", `{"conditions": [{"pattern": "desk", "anchoring": "is"}]}`),
	)

	DescribeTable("refuses what it cannot preview, with a clear error",
		func(key func(catalogIndex) string, path, body string, status int, want string) {
			expectRefused(call(0, http.MethodPost, ci.base+path, key(ci), []byte(body)), status, want)
		},
		Entry("a search key: a preview is the editor's", searchKeyOf, "/rules/hide-l1/preview", `{"q": "lamp"}`, http.StatusForbidden, ""),
		Entry("no draft and no saved rule", writeKeyOf, "/rules/none/preview", `{"q": "lamp"}`, http.StatusNotFound, "rule not found"),
		Entry("rules turned off", writeKeyOf, "/rules/hide-l1/preview", `{"q": "lamp", "enableRules": false}`, http.StatusBadRequest,
			"enableRules: a preview compares the page with a rule and without it"),
		Entry("a search request POST /search refuses", writeKeyOf, "/rules/hide-l1/preview", `{"q": "lamp", "limit": -1}`, http.StatusBadRequest, "limit"),
		Entry("a member neither a search nor a preview has", writeKeyOf, "/rules/hide-l1/preview", `{"q": "lamp", "draft": {}}`, http.StatusBadRequest, "draft"),
		Entry("a body that is not an object", writeKeyOf, "/rules/hide-l1/preview", `[]`, http.StatusBadRequest, "expected a JSON object"),
	)
})

// without is ids without id, in order.
func without(ids []string, id string) []string {
	out := []string{}
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}
