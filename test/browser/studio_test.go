package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
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

// merchandiserKey makes a key named name with the search and the write scope on the
// sample index, the key a merchandiser opens the studio with, and returns its secret.
func merchandiserKey(ctx context.Context, name string) string {
	c := kubeClient()
	key := &searchv1alpha1.APIKey{ObjectMeta: metav1.ObjectMeta{Namespace: env.Workspace, Name: name},
		Spec: searchv1alpha1.APIKeySpec{Scopes: []searchv1alpha1.Scope{searchv1alpha1.ScopeSearch, searchv1alpha1.ScopeWrite}, Indexes: []string{"products"}}}
	Expect(c.Create(ctx, key)).To(Succeed())
	var secret string
	Eventually(func(g Gomega) {
		g.Expect(c.Get(ctx, types.NamespacedName{Namespace: env.Workspace, Name: key.Name}, key)).To(Succeed())
		g.Expect(key.Status.SecretName).NotTo(BeEmpty())
		var s corev1.Secret
		g.Expect(c.Get(ctx, types.NamespacedName{Namespace: env.Workspace, Name: key.Status.SecretName}, &s)).To(Succeed())
		secret = string(s.Data[apikey.SecretKey])
		g.Expect(call(http.MethodGet, "/dashboard/api/key", secret, "", nil)).To(Equal(http.StatusOK))
	}).WithTimeout(time.Minute).Should(Succeed())
	return secret
}

// studioShown is what the studio showed at one step (studio.mjs's shown).
type studioShown struct {
	Hits []struct {
		ObjectID string            `json:"objectID"`
		Position int               `json:"position"`
		Name     string            `json:"name"`
		Pinned   bool              `json:"pinned"`
		Criteria map[string]string `json:"criteria"`
	} `json:"hits"`
	Empty   bool     `json:"empty"`
	Rules   []string `json:"rules"`
	Ignored []string `json:"ignored"`
	Banners []struct {
		Rule string `json:"rule"`
		Text string `json:"text"`
	} `json:"banners"`
	History    map[string][]int64 `json:"history"`
	Restores   []string           `json:"restores"`
	Status     string             `json:"status"`
	Error      string             `json:"error"`
	Unlabelled []string           `json:"unlabelled"`
}

// studioRun is what studio.mjs printed for a scenario.
type studioRun struct {
	TabsToKey         int         `json:"tabsToKey"`
	First             studioShown `json:"first"`
	Typed             studioShown `json:"typed"`
	WithoutRules      studioShown `json:"withoutRules"`
	ReachedRules      bool        `json:"reachedRules"`
	ReachedRestore    bool        `json:"reachedRestore"`
	FocusAfterRestore string      `json:"focusAfterRestore"`
	Restored          studioShown `json:"restored"`
	Saved             studioShown `json:"saved"`
	Undone            studioShown `json:"undone"`
	SavedConfig       struct {
		Synonyms  []map[string]any `json:"synonyms"`
		StopWords struct {
			Words []string `json:"words"`
		} `json:"stopWords"`
	} `json:"savedConfig"`
	SynonymsAfterUndo string   `json:"synonymsAfterUndo"`
	ReachedSynonyms   bool     `json:"reachedSynonyms"`
	ReachedStopWords  bool     `json:"reachedStopWords"`
	ReachedSave       bool     `json:"reachedSave"`
	ReachedUndo       bool     `json:"reachedUndo"`
	Axe               []string `json:"axe"`
	PhoneAxe          []string `json:"phoneAxe"`
	PhoneOverflow     int      `json:"phoneOverflow"`
	PhoneWide         []string `json:"phoneWide"`
	Console           []string `json:"console"`
}

// apiAnswer is the part of a search answer the preview shows.
type apiAnswer struct {
	Hits []struct {
		ObjectID string `json:"objectID"`
		Promoted bool   `json:"promoted"`
		Ranking  *struct {
			Words        int      `json:"words"`
			Typo         int      `json:"typo"`
			Proximity    int      `json:"proximity"`
			Attribute    int      `json:"attribute"`
			Exact        int      `json:"exact"`
			MissingWords []string `json:"missingWords"`
		} `json:"ranking"`
	} `json:"hits"`
	AppliedRules []string `json:"appliedRules"`
	IgnoredWords []string `json:"ignoredWords"`
}

// searchAPI is the search the preview makes, asked of the API with the search key.
func searchAPI(g Gomega, body string) apiAnswer {
	status, raw := callFor(http.MethodPost, indexPath()+"/search", env.Keys["search"], body, nil)
	g.Expect(status).To(Equal(http.StatusOK), raw)
	var a apiAnswer
	g.Expect(json.Unmarshal([]byte(raw), &a)).To(Succeed())
	return a
}

// versionsOf reads GET .../history: the version numbers, newest first.
func versionsOf(kind string) []int64 {
	status, raw := callFor(http.MethodGet, indexPath()+"/"+kind+"/history", env.Keys["search"], "", nil)
	Expect(status).To(Equal(http.StatusOK), raw)
	var h struct{ Versions []struct{ Version int64 } }
	Expect(json.Unmarshal([]byte(raw), &h)).To(Succeed())
	out := make([]int64, len(h.Versions))
	for i, v := range h.Versions {
		out[i] = v.Version
	}
	return out
}

func runStudio(arg map[string]any) studioRun {
	var res studioRun
	runNode("studio.mjs", arg, &res)
	return res
}

// shotsDir is where screenshots go: AISLE_SCREENSHOTS keeps them for a person (docs/).
func shotsDir() string {
	if dir := os.Getenv("AISLE_SCREENSHOTS"); dir != "" {
		return dir
	}
	return GinkgoT().TempDir()
}

func expectPNG(files ...string) {
	for _, f := range files {
		png, err := os.ReadFile(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(png[:8]).To(Equal([]byte("\x89PNG\r\n\x1a\n")), f)
		AddReportEntry(fmt.Sprintf("screenshot %s", filepath.Base(f)), f)
	}
}

// studioURL is the studio's page previewing q, with the query parameters of more
// (the fixes to offer, say).
func studioURL(q string, more ...url.Values) string {
	v := url.Values{"q": {q}}
	for _, m := range more {
		for k, vs := range m {
			v[k] = vs
		}
	}
	return env.BaseURL + "/dashboard/studio.html?" + v.Encode()
}

var _ = Describe("The Studio", Ordered, func() {
	const query = "studio lantern"
	var merchandiser string

	BeforeAll(func(ctx SpecContext) {
		merchandiser = merchandiserKey(ctx, "studio-merchandiser")
		By("writing three lanterns, a rule pinning the least popular first with a banner, and one more rule")
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"], `{"records": [
			{"objectID": "studio-1", "name": "Studio lantern red", "brand": "Lumo", "popularity": 30, "inStock": true},
			{"objectID": "studio-2", "name": "Studio lantern blue", "brand": "Lumo", "popularity": 20, "inStock": true},
			{"objectID": "studio-3", "name": "Studio lantern green", "brand": "Glow", "popularity": 10, "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))
		Expect(call(http.MethodPut, indexPath()+"/rules/studio-other", env.Keys["write"],
			`{"conditions": [{"pattern": "studio candle", "anchoring": "is"}], "consequence": {"hide": ["studio-1"]}}`, nil)).To(Equal(http.StatusOK))
		Expect(call(http.MethodPut, indexPath()+"/rules/studio-pin", env.Keys["write"],
			`{"conditions": [{"pattern": "studio lantern", "anchoring": "startsWith"}],
			  "consequence": {"promote": [{"objectID": "studio-3", "position": 1}], "userData": {"banner": "Lantern week"}}}`, nil)).To(Equal(http.StatusOK))
		Eventually(func(g Gomega) {
			a := searchAPI(g, `{"q": "studio lantern", "explain": true}`)
			g.Expect(a.Hits).To(HaveLen(3))
			g.Expect(a.AppliedRules).To(Equal([]string{"studio-pin"}))
		}).WithTimeout(time.Minute).Should(Succeed())
	})

	It("previews a query as the shopper sees it, with each hit's criteria, the rules applied and the words ignored, read-only with a search key", func() {
		typed := query + " qqzzx"
		// The searches the preview makes (previewRequest in studio-preview.js), asked of
		// the API just before the page runs and again just after: the page shows one of
		// the two answers (another spec's work may still move the index meanwhile).
		status, raw := callFor(http.MethodGet, indexPath()+"/config", env.Keys["search"], "", nil)
		Expect(status).To(Equal(http.StatusOK), raw)
		var cfg struct {
			FacetFields []string `json:"facetFields"`
		}
		Expect(json.Unmarshal([]byte(raw), &cfg)).To(Succeed())
		facets := ""
		if len(cfg.FacetFields) > 0 {
			list, err := json.Marshal(cfg.FacetFields)
			Expect(err).NotTo(HaveOccurred())
			facets = `, "facets": ` + string(list)
		}
		// The page's three previews: the query of the link, the typed one, and it without rules.
		previews := func() (first, typedQuery, bare apiAnswer) {
			ask := func(q, more string) apiAnswer {
				return searchAPI(Default, `{"q": "`+q+`", "explain": true, "limit": 20, "facetFilters": {}`+facets+more+`}`)
			}
			return ask(query, ""), ask(typed, ""), ask(typed, `, "enableRules": false`)
		}
		want, wantTyped, wantBare := previews()
		Expect(wantTyped.IgnoredWords).To(Equal([]string{"qqzzx"}), "the fixture: a word nothing holds is dropped")
		Expect(wantBare.Hits[0].ObjectID).NotTo(Equal("studio-3"), "the fixture: without the rule the pin is gone")

		shot := filepath.Join(shotsDir(), "studio-preview.png")
		res := runStudio(map[string]any{"scenario": "readOnly", "url": studioURL(query), "key": env.Keys["search"], "query": typed, "shot": shot})
		wantAfter, wantTypedAfter, wantBareAfter := previews()

		By("opening from the keyboard with the Events page's key login, on the query of the link")
		Expect(res.TabsToKey).To(Equal(2), "the skip link, then the key")
		Expect(res.First.Error).To(BeEmpty())
		Expect(res.First.Unlabelled).To(BeEmpty())

		By("showing the API's hits in its order, each with its criteria and whether a rule pinned it")
		expectSameAs := func(shown studioShown, a apiAnswer) {
			Expect(shown.Hits).To(HaveLen(len(a.Hits)))
			for i, h := range a.Hits {
				got := shown.Hits[i]
				Expect(got.ObjectID).To(Equal(h.ObjectID))
				Expect(got.Position).To(Equal(i + 1))
				Expect(got.Pinned).To(Equal(h.Promoted), h.ObjectID)
				if h.Ranking == nil {
					Expect(got.Criteria).To(BeEmpty(), "%s: a pinned record is not ranked", h.ObjectID)
					continue
				}
				criteria := map[string]string{
					"words": strconv.Itoa(h.Ranking.Words), "typo": strconv.Itoa(h.Ranking.Typo), "proximity": strconv.Itoa(h.Ranking.Proximity),
					"attribute": strconv.Itoa(h.Ranking.Attribute), "exact": strconv.Itoa(h.Ranking.Exact),
					"custom.popularity": map[string]string{"studio-1": "30", "studio-2": "20", "studio-3": "10"}[h.ObjectID],
				}
				if len(h.Ranking.MissingWords) > 0 {
					criteria["missingWords"] = strings.Join(h.Ranking.MissingWords, " ")
				}
				Expect(got.Criteria).To(Equal(criteria), h.ObjectID)
			}
			Expect(shown.Rules).To(Equal(append([]string{}, a.AppliedRules...)))
			Expect(shown.Ignored).To(Equal(append([]string{}, a.IgnoredWords...)))
		}
		expectSame := func(shown studioShown, before, after apiAnswer) {
			failures := InterceptGomegaFailures(func() { expectSameAs(shown, before) })
			if len(failures) == 0 {
				return
			}
			AddReportEntry("the page differs from the API's answer before it ran", strings.Join(failures, "\n"))
			expectSameAs(shown, after)
		}
		expectSame(res.First, want, wantAfter)
		Expect(res.First.Hits[0]).To(SatisfyAll(HaveField("ObjectID", "studio-3"), HaveField("Pinned", true), HaveField("Name", "Studio lantern green")))
		Expect(res.First.Banners).To(HaveLen(1))
		Expect(res.First.Banners[0].Rule).To(Equal("studio-pin"))
		Expect(res.First.Banners[0].Text).To(ContainSubstring(`"banner": "Lantern week"`))

		By("previewing a typed query, and the ignored word it holds")
		expectSame(res.Typed, wantTyped, wantTypedAfter)
		Expect(res.Typed.Status).To(ContainSubstring("3 results"))

		By("showing the page without rules when the box is unticked from the keyboard")
		Expect(res.ReachedRules).To(BeTrue())
		expectSame(res.WithoutRules, wantBare, wantBareAfter)
		Expect(res.WithoutRules.Rules).To(BeEmpty())
		Expect(res.WithoutRules.Banners).To(BeEmpty())

		By("offering nothing to edit with a search key, and passing axe")
		Expect(res.First.Restores).To(BeEmpty())
		Expect(res.First.History["rules"]).To(Equal(versionsOf("rules")), "the history is read-only, not hidden")
		Expect(res.Axe).To(BeEmpty())
		expectPNG(shot)
	})

	It("lists the settings and rules history and restores a version from the keyboard with a write key", func() {
		By("changing the settings once through the API, so that their history has a version to show")
		status, raw := callFor(http.MethodGet, indexPath()+"/config", env.Keys["write"], "", nil)
		Expect(status).To(Equal(http.StatusOK), raw)
		var cfg map[string]any
		Expect(json.Unmarshal([]byte(raw), &cfg)).To(Succeed())
		delete(cfg, "rebuild")
		cfg["synonyms"] = append(cfg["synonyms"].([]any), map[string]any{"terms": []string{"lantern", "lamp"}})
		body, err := json.Marshal(cfg)
		Expect(err).NotTo(HaveOccurred())
		status, raw = callFor(http.MethodPut, indexPath()+"/config", env.Keys["write"], string(body), nil)
		Expect(status).To(Equal(http.StatusOK), raw)

		rules, config := versionsOf("rules"), versionsOf("config")
		Expect(len(rules)).To(BeNumerically(">=", 2))
		// The version before studio-pin: restoring it takes the pin away.
		restore := rules[1]
		shot, phone := filepath.Join(shotsDir(), "studio-history.png"), filepath.Join(shotsDir(), "studio-history-phone.png")
		res := runStudio(map[string]any{"scenario": "edit", "url": studioURL(query), "key": merchandiser,
			"restore": fmt.Sprintf("rules:%d", restore), "shot": shot, "phoneShot": phone})

		By("listing the versions the API lists, newest first, each restorable but the current one")
		Expect(res.First.Error).To(BeEmpty())
		Expect(res.First.History["rules"]).To(Equal(rules))
		Expect(res.First.History["config"]).To(Equal(config))
		Expect(res.First.Restores).To(HaveLen(len(rules) - 1 + len(config) - 1))
		Expect(res.First.Restores).NotTo(ContainElement(fmt.Sprintf("rules:%d", rules[0])))
		Expect(res.First.Hits[0].Pinned).To(BeTrue())

		By("restoring the rules before the pin: a new version, and the preview without the pin")
		Expect(res.ReachedRestore).To(BeTrue())
		Expect(res.Restored.Error).To(BeEmpty())
		after := versionsOf("rules")
		Expect(after[0]).To(BeNumerically(">", rules[0]))
		Expect(res.Restored.History["rules"]).To(Equal(after))
		Expect(res.Restored.Status).To(ContainSubstring(fmt.Sprintf("version %d restored, as version %d", restore, after[0])))
		Expect(res.FocusAfterRestore).To(Equal("rules-history"))
		Expect(res.Restored.Rules).NotTo(ContainElement("studio-pin"))
		Expect(res.Restored.Hits).NotTo(ContainElement(HaveField("Pinned", true)))
		Expect(call(http.MethodGet, indexPath()+"/rules/studio-pin", env.Keys["search"], "", nil)).To(Equal(http.StatusNotFound))

		By("passing axe on a desktop and on a phone, which it fits")
		Expect(res.Axe).To(BeEmpty())
		Expect(res.PhoneAxe).To(BeEmpty())
		Expect(res.PhoneOverflow).To(BeNumerically("<=", 0), "wider than the phone: %v", res.PhoneWide)
		expectPNG(shot, phone)
	})

	It("tries a synonym and a stop word typed into the draft, previews them saved, and undoes them, with a write key", func() {
		const luminaire = "luminaire"
		Expect(searchAPI(Default, `{"q": "`+luminaire+`"}`).Hits).To(BeEmpty(), "the fixture: no lantern is a luminaire yet")
		config := versionsOf("config")
		shot := filepath.Join(shotsDir(), "studio-synonyms.png")
		res := runStudio(map[string]any{"scenario": "words", "url": studioURL(luminaire), "key": merchandiser,
			"synonym": "luminaire, lantern", "stopWord": "pleasezz", "configPath": indexPath() + "/config", "shot": shot})

		By("showing the empty page first")
		Expect(res.First.Error).To(BeEmpty())
		Expect(res.First.Empty).To(BeTrue())
		Expect(res.ReachedSynonyms && res.ReachedStopWords && res.ReachedSave).To(BeTrue(), "every control reached with Tab")

		By("saving the draft as a settings version, and previewing it: the lanterns are found")
		Expect(res.Saved.Error).To(BeEmpty())
		Expect(res.SavedConfig.Synonyms).To(ContainElement(HaveKeyWithValue("terms", ConsistOf("luminaire", "lantern"))))
		Expect(res.SavedConfig.StopWords.Words).To(ContainElement("pleasezz"))
		Expect(res.Saved.Hits).To(HaveLen(3))
		Expect(res.Saved.Status).To(ContainSubstring("saved as settings version"))

		By("undoing it: the version before restored as a new one, and the page empty again")
		Expect(res.ReachedUndo).To(BeTrue())
		Expect(res.Undone.Error).To(BeEmpty())
		Expect(res.Undone.Empty).To(BeTrue())
		Expect(res.Undone.Status).To(ContainSubstring("Undone"))
		Expect(res.SynonymsAfterUndo).NotTo(ContainSubstring("luminaire"))
		after := versionsOf("config")
		Expect(after).To(HaveLen(len(config)+2), "the save and the undo, each a version")
		Expect(res.Undone.History["config"]).To(Equal(after))
		Expect(searchAPI(Default, `{"q": "`+luminaire+`"}`).Hits).To(BeEmpty())
		Expect(res.Axe).To(BeEmpty())
		expectPNG(shot)
	})
})
