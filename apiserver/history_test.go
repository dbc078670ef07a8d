package apiserver_test

import (
	"encoding/json"
	"net/http"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/history"
	"github.com/aislehq/aisle/internal/search"
)

// versionsOf reads GET path (a history) through replica i with key.
func versionsOf(i int, path, key string) []history.Version {
	GinkgoHelper()
	r := call(i, http.MethodGet, path, key, nil)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var ans struct {
		Versions []history.Version `json:"versions"`
	}
	Expect(json.Unmarshal(r.body, &ans)).To(Succeed())
	return ans.Versions
}

// withoutTimes is vs with their times checked as recent, then zeroed for comparison.
func withoutTimes(vs []history.Version) []history.Version {
	GinkgoHelper()
	out := make([]history.Version, len(vs))
	for i, v := range vs {
		Expect(v.ChangedAt).To(BeTemporally("~", time.Now(), time.Minute))
		v.ChangedAt = time.Time{}
		out[i] = v
	}
	return out
}

// configWith is the settings of ci as GET /config answers them, with synonyms set: a
// PUT /config body.
func configWith(ci catalogIndex, synonyms string) []byte {
	GinkgoHelper()
	return configSetting(ci, "synonyms", synonyms)
}

// configSetting is the settings of ci as GET /config answers them, with setting set to
// the JSON value: a PUT /config body.
func configSetting(ci catalogIndex, setting, value string) []byte {
	GinkgoHelper()
	r := call(0, http.MethodGet, ci.base+"/config", ci.writeKey, nil)
	Expect(r.status).To(Equal(http.StatusOK), string(r.body))
	var body map[string]json.RawMessage
	Expect(json.Unmarshal(r.body, &body)).To(Succeed())
	delete(body, "rebuild")
	body[setting] = json.RawMessage(value)
	out, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	return out
}

const before1st = "as it was before the first change through the API"

var _ = Describe("History and undo of settings and rules (issue 36)", func() {
	Describe("the settings' history", Ordered, func() {
		var ci catalogIndex
		var writer string
		BeforeAll(func() {
			ci = newRulesIndex()
			writer = "shop-" + ci.name + "-w"
		})

		It("holds no version before the first change through the API", func() {
			Expect(versionsOf(1, ci.base+"/config/history", ci.searchKey)).To(BeEmpty())
		})

		It("keeps the settings before the first change and after it, with the key's name and the time", func() {
			r := call(0, http.MethodPut, ci.base+"/config", ci.writeKey, configWith(ci, `[{"terms": ["desk", "table"]}]`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(withoutTimes(versionsOf(1, ci.base+"/config/history", ci.searchKey))).To(Equal([]history.Version{
				{Version: 2, ChangedBy: writer, Summary: "changed synonyms"},
				{Version: 1, Summary: before1st},
			}))
		})

		It("keeps no version for a PUT that changes nothing", func() {
			r := call(1, http.MethodPut, ci.base+"/config", ci.writeKey, configWith(ci, `[{"terms": ["desk", "table"]}]`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(versionsOf(0, ci.base+"/config/history", ci.writeKey)).To(HaveLen(2))
		})

		It("puts a version back through one replica, seen by the other, as a version of its own", func() {
			r := call(1, http.MethodPost, ci.base+"/config/history/1/restore", ci.writeKey, nil)
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			var ans struct {
				Synonyms []any    `json:"synonyms"`
				Applied  []string `json:"applied"`
				Version  int64    `json:"version"`
				Restored int64    `json:"restored"`
			}
			Expect(json.Unmarshal(r.body, &ans)).To(Succeed())
			Expect(ans.Synonyms).To(BeEmpty())
			Expect(ans.Applied).To(Equal([]string{"synonyms"}))
			Expect(ans.Version).To(BeNumerically("==", 3))
			Expect(ans.Restored).To(BeNumerically("==", 1))
			Expect(call(0, http.MethodGet, ci.base+"/config", ci.searchKey, nil).body).To(ContainSubstring(`"synonyms":[]`))
			Expect(withoutTimes(versionsOf(0, ci.base+"/config/history", ci.searchKey))[0]).To(Equal(
				history.Version{Version: 3, ChangedBy: writer, Summary: "restored version 1: changed synonyms"}))

			// The restore itself is undone like any change.
			r = call(0, http.MethodPost, ci.base+"/config/history/2/restore", ci.writeKey, nil)
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(call(1, http.MethodGet, ci.base+"/config", ci.searchKey, nil).body).To(ContainSubstring(`"synonyms":[{"terms":["desk","table"]}]`))
		})

		It("refuses a restore with a search key, of a version it does not hold, and of a path that is no version", func() {
			expectRefused(call(0, http.MethodPost, ci.base+"/config/history/1/restore", ci.searchKey, nil), http.StatusForbidden, "")
			expectRefused(call(0, http.MethodPost, ci.base+"/config/history/9/restore", ci.writeKey, nil),
				http.StatusNotFound, "version not found: the config history holds versions 1 to 4")
			for _, v := range []string{"0", "-1", "x", "99999999999999999999"} {
				expectRefused(call(0, http.MethodPost, ci.base+"/config/history/"+v+"/restore", ci.writeKey, nil),
					http.StatusBadRequest, "version must be a positive integer")
			}
			Expect(versionsOf(0, ci.base+"/config/history", ci.writeKey)).To(HaveLen(4))
		})
	})

	Describe("the rules' history", Ordered, func() {
		var ci catalogIndex
		var writer string
		BeforeAll(func() {
			ci = newRulesIndex()
			writer = "shop-" + ci.name + "-w"
		})
		const pin = `{"objectID": "desk-pin", "conditions": [{"pattern": "desk", "anchoring": "contains"}],
			"consequence": {"promote": [{"objectID": "l1", "position": 1}]}}`

		It("keeps the rule set each write leaves, with the key's name and what it did", func() {
			Expect(call(0, http.MethodPut, ci.base+"/rules/desk-pin", ci.writeKey, []byte(pin)).status).To(Equal(http.StatusOK))
			r := call(1, http.MethodPost, ci.base+"/rules", ci.writeKey, []byte(`{"rules": [
				{"objectID": "lamp-banner", "consequence": {"userData": {"banner": "lamps"}}},
				{"objectID": "desk-hide", "consequence": {"hide": ["d1"]}}]}`))
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(call(0, http.MethodDelete, ci.base+"/rules/lamp-banner", ci.writeKey, nil).status).To(Equal(http.StatusOK))
			putRules(ci, `{"objectID": "only", "consequence": {"hide": ["d2"]}}`)
			Expect(withoutTimes(versionsOf(1, ci.base+"/rules/history", ci.searchKey))).To(Equal([]history.Version{
				{Version: 5, ChangedBy: writer, Summary: "replaced every rule with 1 rule"},
				{Version: 4, ChangedBy: writer, Summary: "deleted rule lamp-banner"},
				{Version: 3, ChangedBy: writer, Summary: "put 2 rules: lamp-banner, desk-hide"},
				{Version: 2, ChangedBy: writer, Summary: "put rule desk-pin"},
				{Version: 1, Summary: before1st},
			}))
		})

		It("puts a version back through one replica; the other lists and applies it", func() {
			r := call(1, http.MethodPost, ci.base+"/rules/history/2/restore", ci.writeKey, nil)
			Expect(r.status).To(Equal(http.StatusOK), string(r.body))
			Expect(r.body).To(MatchJSON(`{"version": 6, "restored": 2}`))
			Expect(call(0, http.MethodGet, ci.base+"/rules", ci.searchKey, nil).body).To(MatchJSON(
				`{"rules": [` + pin + `], "total": 1, "offset": 0, "limit": 20}`))
			Eventually(func() []string { return ruledSearch(ci, `{"q": "walnut desk"}`).ids() }).Should(HaveExactElements("l1", "d2", "d1", "d3"))
			Expect(withoutTimes(versionsOf(0, ci.base+"/rules/history", ci.writeKey))[0]).To(Equal(
				history.Version{Version: 6, ChangedBy: writer, Summary: "restored version 2 (1 rule)"}))
		})

		It("keeps the versions in Elasticsearch: a service started afresh lists the same", func() {
			fresh, err := search.New(esClient).Rules().History(ctx, ci.names)
			Expect(err).NotTo(HaveOccurred())
			Expect(fresh).To(Equal(versionsOf(0, ci.base+"/rules/history", ci.searchKey)))
		})

		It("puts back the rule set before the first write: none", func() {
			Expect(call(0, http.MethodPost, ci.base+"/rules/history/1/restore", ci.writeKey, nil).status).To(Equal(http.StatusOK))
			Expect(call(1, http.MethodGet, ci.base+"/rules", ci.searchKey, nil).body).To(MatchJSON(`{"rules": [], "total": 0, "offset": 0, "limit": 20}`))
		})

		It("refuses a restore with a search key or of a version it does not hold, and the objectID history", func() {
			expectRefused(call(0, http.MethodPost, ci.base+"/rules/history/2/restore", ci.searchKey, nil), http.StatusForbidden, "")
			expectRefused(call(0, http.MethodPost, ci.base+"/rules/history/70/restore", ci.writeKey, nil),
				http.StatusNotFound, "version not found: the rules history holds versions 1 to 7")
			expectRefused(call(0, http.MethodPost, ci.base+"/rules", ci.writeKey, []byte(`{"rules": [{"objectID": "history", "consequence": {"hide": ["x"]}}]}`)),
				http.StatusBadRequest, `invalid rule: rules[0].objectID: "history" is reserved: GET /rules/history lists the rules' versions`)
			Expect(versionsOf(0, ci.base+"/rules/history", ci.writeKey)).To(HaveLen(7))
		})
	})
})
