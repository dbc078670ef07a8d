package browser

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// editorShown is what the rules editor showed at one step (studio-rules.mjs's editor).
type editorShown struct {
	Rules        []string          `json:"rules"`
	Edits        []string          `json:"edits"`
	Deletes      []string          `json:"deletes"`
	FormShown    bool              `json:"formShown"`
	Fields       map[string]string `json:"fields"`
	Notes        []string          `json:"notes"`
	CompareShown bool              `json:"compareShown"`
	With         []editorHit       `json:"with"`
	Without      []editorHit       `json:"without"`
	WithRules    string            `json:"withRules"`
}

type editorHit struct {
	ObjectID  string `json:"objectID"`
	Pinned    bool   `json:"pinned"`
	Draggable bool   `json:"draggable"`
}

func editorIDs(hits []editorHit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.ObjectID)
	}
	return out
}

// phoneFit is how a page fits a phone's screen (studio-lib.mjs's onPhone).
type phoneFit struct {
	Overflow int
	Wide     []string
	Axe      []string
}

// expectFitsPhone: no wider than the phone, and axe finds nothing there either.
func expectFitsPhone(p phoneFit) {
	GinkgoHelper()
	Expect(p.Axe).To(BeEmpty(), "axe on a phone")
	Expect(p.Overflow).To(BeNumerically("<=", 0), "wider than the phone: %v", p.Wide)
}

// rulesRun is what studio-rules.mjs printed.
type rulesRun struct {
	First         editorShown     `json:"first"`
	FocusAfterNew string          `json:"focusAfterNew"`
	Tried         editorShown     `json:"tried"`
	SavedAfterTry int             `json:"savedAfterTry"`
	Dragged       string          `json:"dragged"`
	AfterDrag     editorShown     `json:"afterDrag"`
	Hidden        string          `json:"hidden"`
	AfterHide     editorShown     `json:"afterHide"`
	Saved         editorShown     `json:"saved"`
	Preview       studioShown     `json:"preview"`
	SavedRule     json.RawMessage `json:"savedRule"`
	Editing       editorShown     `json:"editing"`
	Edited        json.RawMessage `json:"edited"`
	Deleted       editorShown     `json:"deleted"`
	Error         string          `json:"error"`
	Axe           []string        `json:"axe"`
	Phone         phoneFit        `json:"phone"`
	Console       []string        `json:"console"`
}

// previewAPI asks POST /rules/{id}/preview with the write key: the pages the editor shows.
func previewAPI(id, body string) (with, without []string) {
	status, raw := callFor(http.MethodPost, indexPath()+"/rules/"+id+"/preview", env.Keys["write"], body, nil)
	Expect(status).To(Equal(http.StatusOK), raw)
	var p struct{ With, Without apiAnswer }
	Expect(json.Unmarshal([]byte(raw), &p)).To(Succeed())
	ids := func(a apiAnswer) []string {
		out := []string{}
		for _, h := range a.Hits {
			out = append(out, h.ObjectID)
		}
		return out
	}
	return ids(p.With), ids(p.Without)
}

var _ = Describe("The Studio's rules editor", Ordered, func() {
	const query = "rulebook torch"
	var page, merchandiser string

	BeforeAll(func(ctx SpecContext) {
		page = studioURL(query)
		merchandiser = merchandiserKey(ctx, "studio-rules-merchandiser")
		By("writing four torches of two brands, and a rule on another query")
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"], `{"records": [
			{"objectID": "torch-1", "name": "Rulebook torch one", "brand": "Lumo", "popularity": 40, "inStock": true},
			{"objectID": "torch-2", "name": "Rulebook torch two", "brand": "Lumo", "popularity": 30, "inStock": true},
			{"objectID": "torch-3", "name": "Rulebook torch three", "brand": "Glow", "popularity": 20, "inStock": true},
			{"objectID": "torch-4", "name": "Rulebook torch four", "brand": "Glow", "popularity": 10, "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))
		Expect(call(http.MethodPut, indexPath()+"/rules/rulebook-other", env.Keys["write"],
			`{"conditions": [{"pattern": "rulebook candle", "anchoring": "is"}], "consequence": {"hide": ["torch-1"]}}`, nil)).To(Equal(http.StatusOK))
		Eventually(func(g Gomega) {
			g.Expect(searchAPI(g, `{"q": "`+query+`"}`).Hits).To(HaveLen(4))
		}).WithTimeout(time.Minute).Should(Succeed())
	})

	It("drafts a rule on the preview's query, shows the page with it and without it, pins by drag and drop, hides from the keyboard, and saves, edits and deletes it", func() {
		const id = "torch-week"
		shot, phone := filepath.Join(shotsDir(), "studio-rules.png"), filepath.Join(shotsDir(), "studio-rules-phone.png")
		var res rulesRun
		runNode("studio-rules.mjs", map[string]any{"scenario": "edit", "url": page, "key": merchandiser, "id": id,
			"context": "mobile", "boost": "brand:Glow", "banner": "Torch week", "from": "2020-01-01T00:00", "until": "2099-01-01T00:00",
			"rulePath": indexPath() + "/rules/" + id, "newBanner": "Torch month", "shot": shot, "phoneShot": phone}, &res)

		By("listing the rules with their edit buttons, and a new rule on the preview's query")
		Expect(res.First.FormShown).To(BeTrue())
		Expect(res.First.Rules).To(ContainElement("rulebook-other"))
		Expect(res.First.Edits).To(ContainElement("rulebook-other"))
		Expect(res.FocusAfterNew).To(Equal("rule-id"))
		Expect(res.Tried.Fields["rule-pattern-1"]).To(Equal(query))

		By("trying the draft: the pages POST /rules/{id}/preview answers, nothing saved")
		Expect(res.Tried.CompareShown).To(BeTrue())
		draft := `{"objectID": "torch-week", "conditions": [{"pattern": "rulebook torch", "anchoring": "contains", "context": "mobile"}],
			"validity": [{"from": "2020-01-01T00:00:00Z", "until": "2099-01-01T00:00:00Z"}],
			"consequence": {"boost": [{"filter": {"field": "brand", "eq": "Glow"}}], "userData": {"banner": "Torch week"}}}`
		with, without := previewAPI(id, `{"q": "`+query+`", "explain": true, "limit": 20, "facetFilters": {}, "ruleContexts": ["mobile"], "rule": `+draft+`}`)
		Expect(editorIDs(res.Tried.With)).To(Equal(with))
		Expect(editorIDs(res.Tried.Without)).To(Equal(without))
		Expect(with[:2]).To(ConsistOf("torch-3", "torch-4"), "the boost lifts the Glow torches")
		Expect(res.Tried.WithRules).To(ContainSubstring(id))
		Expect(res.SavedAfterTry).To(Equal(http.StatusNotFound))

		By("pinning the last product of the page without the rule at the first place, by dragging it there")
		Expect(res.AfterDrag.Fields["rule-pins"]).To(Equal(res.Dragged + "@1"))
		Expect(res.AfterDrag.With[0]).To(Equal(editorHit{ObjectID: res.Dragged, Pinned: true, Draggable: true}))

		By("hiding the second product with its button, from the keyboard")
		Expect(res.AfterHide.Fields["rule-hide"]).To(Equal(res.Hidden))
		Expect(editorIDs(res.AfterHide.With)).NotTo(ContainElement(res.Hidden))
		Expect(editorIDs(res.AfterHide.Without)).To(ContainElement(res.Hidden))
		Expect(res.Axe).To(BeEmpty())
		expectFitsPhone(res.Phone)
		expectPNG(shot, phone)

		By("saving the rule the form shows: the preview applies it, the list has it")
		Expect(res.SavedRule).To(MatchJSON(`{"objectID": "torch-week", "conditions": [{"pattern": "rulebook torch", "anchoring": "contains", "context": "mobile"}],
			"validity": [{"from": "2020-01-01T00:00:00Z", "until": "2099-01-01T00:00:00Z"}],
			"consequence": {"promote": [{"objectID": "` + res.Dragged + `", "position": 1}], "hide": ["` + res.Hidden + `"],
			  "boost": [{"filter": {"field": "brand", "eq": "Glow"}}], "userData": {"banner": "Torch week"}}}`))
		Expect(res.Saved.Rules).To(ContainElement(id))
		Expect(res.Preview.Rules).To(ContainElement(id))
		Expect(res.Preview.Hits[0].ObjectID).To(Equal(res.Dragged))
		Expect(searchAPI(Default, `{"q": "`+query+`"}`).AppliedRules).NotTo(ContainElement(id), "without the context the rule does not apply")

		By("editing it: the form holds the saved rule, and a changed banner is saved")
		Expect(res.Editing.Fields).To(HaveKeyWithValue("rule-banner", "Torch week"))
		Expect(res.Editing.Fields).To(HaveKeyWithValue("rule-pins", res.Dragged+"@1"))
		Expect(res.Editing.Fields).To(HaveKeyWithValue("rule-context-1", "mobile"))
		var edited struct {
			Consequence struct {
				UserData map[string]string `json:"userData"`
			} `json:"consequence"`
		}
		Expect(json.Unmarshal(res.Edited, &edited)).To(Succeed())
		Expect(edited.Consequence.UserData).To(Equal(map[string]string{"banner": "Torch month"}))

		By("deleting it from the keyboard")
		Expect(res.Error).To(BeEmpty())
		Expect(res.Deleted.Rules).NotTo(ContainElement(id))
		Expect(call(http.MethodGet, indexPath()+"/rules/"+id, env.Keys["search"], "", nil)).To(Equal(http.StatusNotFound))
	})

	It("lists the rules read-only with a search key", func() {
		var res rulesRun
		runNode("studio-rules.mjs", map[string]any{"scenario": "readOnly", "url": page, "key": env.Keys["search"]}, &res)
		Expect(res.First.Rules).To(ContainElement("rulebook-other"))
		Expect(res.First.Edits).To(BeEmpty())
		Expect(res.First.Deletes).To(BeEmpty())
		Expect(res.First.FormShown).To(BeFalse())
		Expect(res.Axe).To(BeEmpty())
	})
})
