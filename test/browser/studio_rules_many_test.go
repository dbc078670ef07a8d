package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rulesList is what the rules list showed at one step (studio-rules-many.mjs's listShown).
type rulesList struct {
	Rules        []string `json:"rules"`
	Count        string   `json:"count"`
	Caption      string   `json:"caption"`
	PrevDisabled bool     `json:"prevDisabled"`
	NextDisabled bool     `json:"nextDisabled"`
	Status       string   `json:"status"`
	Focus        string   `json:"focus"`
	Error        string   `json:"error"`
}

// conditionShown is one condition group of the form (studio-rules-many.mjs's conditionsShown).
type conditionShown struct {
	Legend          string `json:"legend"`
	Pattern         string `json:"pattern"`
	Anchoring       string `json:"anchoring"`
	Filters         string `json:"filters"`
	FiltersReadOnly bool   `json:"filtersReadOnly"`
	Context         string `json:"context"`
	Labelled        bool   `json:"labelled"`
}

type manyRulesRun struct {
	First, TooLong, Found, Searched, Paged rulesList
	AfterSave                              rulesList
	Editing, BeforeSave, SavedConditions   []conditionShown
	EditFocus, AddFocus, RemoveFocus       string
	RemoveStatus                           string
	Saved                                  json.RawMessage
	Axe                                    []string
	Phone                                  phoneFit
	Console                                []string
}

// wombatRules are 125 rules of the word wombat, IDs wombat-001 to wombat-125, which sort
// after every other spec's rules; wombat-115 has two conditions, the second with a
// filter the form cannot write.
func wombatRules() string {
	rules := make([]string, 0, 125)
	for n := 1; n <= 125; n++ {
		conds := fmt.Sprintf(`[{"pattern": "wombat %d", "anchoring": "is"}]`, n)
		if n == 115 {
			conds = `[{"pattern": "wombat burrow", "anchoring": "is", "filters": {"field": "brand", "eq": "Glow"}},
				{"pattern": "wombat den", "anchoring": "contains", "filters": {"not": {"field": "brand", "eq": "Lumo"}}, "context": "mobile"}]`
		}
		rules = append(rules, fmt.Sprintf(`{"objectID": "wombat-%03d", "description": "Wombat rule %d", "conditions": %s,
			"consequence": {"userData": {"banner": "Wombat %d"}}}`, n, n, conds, n))
	}
	return `{"rules": [` + strings.Join(rules, ",") + `]}`
}

var _ = Describe("The Studio's rules editor with many rules", Ordered, func() {
	const target = "wombat-115"
	var merchandiser string

	BeforeAll(func(ctx SpecContext) {
		merchandiser = merchandiserKey(ctx, "studio-rules-many-merchandiser")
		By("writing 125 wombat rules at once")
		status, raw := callFor(http.MethodPost, indexPath()+"/rules", env.Keys["write"], wombatRules(), nil)
		Expect(status).To(Equal(http.StatusOK), raw)
		DeferCleanup(removeWombats)
	})

	It("finds rule #115 by the search box and by paging, from the keyboard, and edits its conditions: one changed, one added, one removed", func() {
		shot, phone := filepath.Join(shotsDir(), "studio-rules-conditions.png"), filepath.Join(shotsDir(), "studio-rules-conditions-phone.png")
		tooLong := strings.Repeat("é", 300) // 600 bytes, within the box's 512 characters
		var res manyRulesRun
		runNode("studio-rules-many.mjs", map[string]any{"scenario": "many", "url": studioURL("wombat"),
			"key": merchandiser, "word": "wombat", "tooLong": tooLong, "target": target, "rulePath": indexPath() + "/rules/" + target,
			"second": "wombat lair", "third": map[string]string{"pattern": "wombat sett", "anchoring": "is", "filters": "brand:Glow", "context": "landing-wombat"},
			"shot": shot, "phoneShot": phone}, &res)

		By("listing one page of the index's rules, with the count the API finds")
		Expect(res.First.Rules).To(HaveLen(100))
		Expect(res.First.Rules).NotTo(ContainElement(target))
		Expect(res.First.PrevDisabled).To(BeTrue())
		Expect(res.First.NextDisabled).To(BeFalse())
		Expect(res.First.Count).To(MatchRegexp(`^1 to 100 of \d+ rules$`))

		By("showing the API's error for a search it refuses")
		status, raw := callFor(http.MethodGet, indexPath()+"/rules?"+url.Values{"query": {tooLong}}.Encode(), merchandiser, "", nil)
		Expect(status).To(Equal(http.StatusBadRequest), raw)
		var refused struct{ Error string }
		Expect(json.Unmarshal([]byte(raw), &refused)).To(Succeed())
		Expect(refused.Error).To(ContainSubstring("512 bytes"))
		Expect(res.TooLong.Error).To(Equal("Could not read the rules: " + refused.Error))

		By("finding it by the search box, the count announced, the error gone")
		Expect(res.Found.Error).To(BeEmpty())
		Expect(res.Found.Rules).To(Equal([]string{target}))
		Expect(res.Found.Count).To(Equal("1 rule matching “wombat 115”"))
		Expect(res.Found.Status).To(Equal("Rules: " + res.Found.Count + "."))
		Expect(res.Found.NextDisabled).To(BeTrue())

		By("reaching it by paging the rules of the word, typed without Enter: the first page of 100, then the next")
		Expect(res.Searched.Rules).To(HaveLen(100))
		Expect(res.Searched.Rules[0]).To(Equal("wombat-001"))
		Expect(res.Searched.Count).To(Equal("1 to 100 of 125 rules matching “wombat”"))
		Expect(res.Searched.Caption).To(Equal(res.Searched.Count))
		Expect(res.Paged.Rules).To(HaveLen(25))
		Expect(res.Paged.Rules[0]).To(Equal("wombat-101"))
		Expect(res.Paged.Rules).To(ContainElement(target))
		Expect(res.Paged.Count).To(Equal("101 to 125 of 125 rules matching “wombat”"))
		Expect(res.Paged.Status).To(Equal("Rules: " + res.Paged.Count + "."))
		Expect(res.Paged.NextDisabled).To(BeTrue())
		Expect(res.Paged.PrevDisabled).To(BeFalse())
		Expect(res.Paged.Focus).To(Equal("rules-list"), "the new page takes the focus")

		By("showing every condition of the rule, a filter the form cannot write read-only")
		Expect(res.EditFocus).To(Equal("rule-description"))
		Expect(res.Editing).To(Equal([]conditionShown{
			{Legend: "Condition 1", Pattern: "wombat burrow", Anchoring: "is", Filters: "brand:Glow", Labelled: true},
			{Legend: "Condition 2", Pattern: "wombat den", Anchoring: "contains", Filters: `{"not":{"field":"brand","eq":"Lumo"}}`,
				FiltersReadOnly: true, Context: "mobile", Labelled: true},
		}))

		By("adding a third and removing the first, the focus following")
		Expect(res.AddFocus).To(Equal("rule-pattern-3"))
		Expect(res.RemoveFocus).To(Equal("rule-pattern-1"), "the condition after the removed one, renumbered")
		Expect(res.RemoveStatus).To(Equal("Condition 1 removed; 2 left."))
		Expect(res.BeforeSave).To(Equal([]conditionShown{
			{Legend: "Condition 1", Pattern: "wombat lair", Anchoring: "contains", Filters: `{"not":{"field":"brand","eq":"Lumo"}}`,
				FiltersReadOnly: true, Context: "mobile", Labelled: true},
			{Legend: "Condition 2", Pattern: "wombat sett", Anchoring: "is", Filters: "brand:Glow", Context: "landing-wombat", Labelled: true},
		}))
		Expect(res.Axe).To(BeEmpty())
		expectFitsPhone(res.Phone)
		expectPNG(shot, phone)

		By("saving exactly what the form shows")
		saved := `{"objectID": "wombat-115", "description": "Wombat rule 115", "conditions": [
			{"pattern": "wombat lair", "anchoring": "contains", "filters": {"not": {"field": "brand", "eq": "Lumo"}}, "context": "mobile"},
			{"pattern": "wombat sett", "anchoring": "is", "filters": {"field": "brand", "eq": "Glow"}, "context": "landing-wombat"}],
			"consequence": {"userData": {"banner": "Wombat 115"}}}`
		Expect(res.Saved).To(MatchJSON(saved))
		status, raw = callFor(http.MethodGet, indexPath()+"/rules/"+target, env.Keys["search"], "", nil)
		Expect(status).To(Equal(http.StatusOK))
		Expect(raw).To(MatchJSON(saved))
		Expect(res.SavedConditions).To(Equal(res.BeforeSave), "the form reloads the saved rule as it showed it")
		Expect(res.AfterSave.Count).To(Equal(res.Paged.Count), "the list stays on its page")
		Expect(res.AfterSave.Error).To(BeEmpty())
	})
})

// removeWombats puts back the index's rules without the wombats, in one write.
func removeWombats() {
	status, raw := callFor(http.MethodGet, indexPath()+"/rules?limit=1000", env.Keys["write"], "", nil)
	Expect(status).To(Equal(http.StatusOK), raw)
	var page struct {
		Rules []map[string]any `json:"rules"`
		Total int              `json:"total"`
	}
	Expect(json.Unmarshal([]byte(raw), &page)).To(Succeed())
	Expect(page.Rules).To(HaveLen(page.Total), "every rule read back")
	kept := []map[string]any{}
	for _, r := range page.Rules {
		if !strings.HasPrefix(r["objectID"].(string), "wombat-") {
			kept = append(kept, r)
		}
	}
	body, err := json.Marshal(map[string]any{"rules": kept})
	Expect(err).NotTo(HaveOccurred())
	status, raw = callFor(http.MethodPut, indexPath()+"/rules", env.Keys["write"], string(body), nil)
	Expect(status).To(Equal(http.StatusOK), raw)
}
