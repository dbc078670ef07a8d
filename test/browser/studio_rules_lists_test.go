package browser

import (
	"encoding/json"
	"net/http"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// groupShown is one group of the rules form's windows, boosts or buries
// (studio-rules-lists.mjs's listsShown).
type groupShown struct {
	Legend   string            `json:"legend"`
	Values   map[string]string `json:"values"`
	ReadOnly []string          `json:"readOnly"`
	Labelled bool              `json:"labelled"`
	Remove   string            `json:"remove"`
}

type listsShown struct {
	Windows []groupShown `json:"windows"`
	Boosts  []groupShown `json:"boosts"`
	Buries  []groupShown `json:"buries"`
}

// focusStatus is where the focus went after a group was added or removed, and what the
// status line said.
type focusStatus struct {
	Focus  string `json:"focus"`
	Status string `json:"status"`
}

type listsRun struct {
	Editing, BeforeSave, AfterSave listsShown
	Notes                          []string
	WindowRemoved, WindowAdded     focusStatus
	BoostRemoved, BuryAdded        focusStatus
	EmptyRefused, Error            string
	Saved                          json.RawMessage
	Axe                            []string
	Phone                          phoneFit
	Console                        []string
}

// shownGroup is a group as the form should show it: labelled, its Remove button naming
// it, the fields named readOnly read-only.
func shownGroup(legend string, values map[string]string, readOnly ...string) groupShown {
	if readOnly == nil {
		readOnly = []string{}
	}
	return groupShown{Legend: legend, Values: values, ReadOnly: readOnly, Labelled: true, Remove: "Remove " + lowerFirst(legend)}
}

func lowerFirst(s string) string {
	return string(s[0]|0x20) + s[1:]
}

func windowShown(n, from, until string) groupShown {
	return shownGroup("Validity window "+n, map[string]string{"from": from, "until": until})
}

func weightedShown(kind, n, filter, weight string, readOnly ...string) groupShown {
	legend := map[string]string{"boost": "Boost ", "bury": "Bury "}[kind] + n
	return shownGroup(legend, map[string]string{kind + "Filter": filter, kind + "Weight": weight}, readOnly...)
}

var _ = Describe("The Studio's rules editor with many validity windows, boosts and buries", Ordered, func() {
	const id = "lists-week"
	var merchandiser string

	BeforeAll(func(ctx SpecContext) {
		merchandiser = merchandiserKey(ctx, "studio-rules-lists-merchandiser")
		By("writing a rule of three windows, three boosts (one on a filter the form cannot write) and a bury")
		status, raw := callFor(http.MethodPut, indexPath()+"/rules/"+id, env.Keys["write"], `{"description": "Lamps of the week",
			"conditions": [{"pattern": "listsrule lamp", "anchoring": "is"}],
			"validity": [{"from": "2026-11-01T00:00:00Z", "until": "2026-11-08T00:00:00Z"},
				{"from": "2026-12-01T08:00:00Z", "until": "2026-12-24T18:00:00Z"}, {"until": "2027-01-01T00:00:00Z"}],
			"consequence": {"boost": [{"filter": {"field": "brand", "eq": "Glow"}, "weight": 3},
				{"filter": {"field": "brand", "in": ["Lumo", "Zed"]}}, {"filter": {"not": {"field": "categories", "eq": "clearance"}}, "weight": 2}],
				"bury": [{"filter": {"field": "categories", "eq": "seconds"}}], "userData": {"banner": "Lamp week"}}}`, nil)
		Expect(status).To(Equal(http.StatusOK), raw)
		DeferCleanup(func() {
			Expect(call(http.MethodDelete, indexPath()+"/rules/"+id, env.Keys["write"], "", nil)).To(Equal(http.StatusOK))
		})
	})

	It("shows every window, boost and bury of the rule, changes, adds and removes them from the keyboard, refuses an empty boost, and saves exactly what it shows", func() {
		shot, phone := filepath.Join(shotsDir(), "studio-rules-lists.png"), filepath.Join(shotsDir(), "studio-rules-lists-phone.png")
		var res listsRun
		runNode("studio-rules-lists.mjs", map[string]any{"scenario": "lists", "url": studioURL("listsrule lamp"), "key": merchandiser,
			"id": id, "rulePath": indexPath() + "/rules/" + id,
			"changed": map[string]string{"until": "2026-12-31T23:30", "weight": "5"},
			"added":   map[string]string{"from": "2027-02-01T09:30", "until": "2027-02-15T00:00", "bury": "brand:Zed", "buryWeight": "4"},
			"shot":    shot, "phoneShot": phone}, &res)

		By("showing each window, boost and bury as a group of its own, a filter the form cannot write read-only")
		Expect(res.Editing).To(Equal(listsShown{
			Windows: []groupShown{windowShown("1", "2026-11-01T00:00", "2026-11-08T00:00"), windowShown("2", "2026-12-01T08:00", "2026-12-24T18:00"),
				windowShown("3", "", "2027-01-01T00:00")},
			Boosts: []groupShown{weightedShown("boost", "1", "brand:Glow", "3"), weightedShown("boost", "2", "brand:Lumo, brand:Zed", "1"),
				weightedShown("boost", "3", `{"not":{"field":"categories","eq":"clearance"}}`, "2", "boostFilter")},
			Buries: []groupShown{weightedShown("bury", "1", "categories:seconds", "1")},
		}))
		Expect(res.Notes).To(Equal([]string{"A filter shown as JSON is one this form cannot write; it is read-only and kept as it is."}))

		By("removing and adding groups, the focus following and the status line saying what happened")
		Expect(res.WindowRemoved).To(Equal(focusStatus{Focus: "rule-from-1", Status: "Validity window 1 removed; 2 left."}))
		Expect(res.WindowAdded).To(Equal(focusStatus{Focus: "rule-from-3", Status: "Validity window 3 added; the rule applies within any of its windows."}))
		Expect(res.BoostRemoved).To(Equal(focusStatus{Focus: "rule-boost-2", Status: "Boost 2 removed; 2 left."}))
		Expect(res.BuryAdded).To(Equal(focusStatus{Focus: "rule-bury-2", Status: "Bury 2 added: give it a filter."}))

		By("refusing to save a boost without a filter, saying which")
		Expect(res.EmptyRefused).To(Equal("Check the rule: Boost 3: give it a filter, or remove it"))

		By("showing the edited lists, accessible on the desktop and on a phone")
		Expect(res.BeforeSave).To(Equal(listsShown{
			Windows: []groupShown{windowShown("1", "2026-12-01T08:00", "2026-12-31T23:30"), windowShown("2", "", "2027-01-01T00:00"),
				windowShown("3", "2027-02-01T09:30", "2027-02-15T00:00")},
			Boosts: []groupShown{weightedShown("boost", "1", "brand:Glow", "5"),
				weightedShown("boost", "2", `{"not":{"field":"categories","eq":"clearance"}}`, "2", "boostFilter")},
			Buries: []groupShown{weightedShown("bury", "1", "categories:seconds", "1"), weightedShown("bury", "2", "brand:Zed", "4")},
		}))
		Expect(res.Axe).To(BeEmpty())
		expectFitsPhone(res.Phone)
		expectPNG(shot, phone)

		By("saving exactly what the form shows, as GET /rules/{id} reads it back")
		saved := `{"objectID": "lists-week", "description": "Lamps of the week", "conditions": [{"pattern": "listsrule lamp", "anchoring": "is"}],
			"validity": [{"from": "2026-12-01T08:00:00Z", "until": "2026-12-31T23:30:00Z"}, {"until": "2027-01-01T00:00:00Z"},
				{"from": "2027-02-01T09:30:00Z", "until": "2027-02-15T00:00:00Z"}],
			"consequence": {"boost": [{"filter": {"field": "brand", "eq": "Glow"}, "weight": 5}, {"filter": {"not": {"field": "categories", "eq": "clearance"}}, "weight": 2}],
				"bury": [{"filter": {"field": "categories", "eq": "seconds"}}, {"filter": {"field": "brand", "eq": "Zed"}, "weight": 4}],
				"userData": {"banner": "Lamp week"}}}`
		Expect(res.Error).To(BeEmpty())
		Expect(res.Saved).To(MatchJSON(saved))
		status, raw := callFor(http.MethodGet, indexPath()+"/rules/"+id, env.Keys["search"], "", nil)
		Expect(status).To(Equal(http.StatusOK))
		Expect(raw).To(MatchJSON(saved))
		Expect(res.AfterSave).To(Equal(res.BeforeSave), "the form reloads the saved rule as it showed it")
	})
})
