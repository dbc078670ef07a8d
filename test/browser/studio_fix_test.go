package browser

import (
	"net/http"
	"net/url"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// fixShown is what studio-fix.mjs read of the fixes and the rules editor.
type fixShown struct {
	Shown        bool   `json:"shown"`
	Query        string `json:"query"`
	Why          string `json:"why"`
	RuleID       string `json:"ruleId"`
	Pattern      string `json:"pattern"`
	Anchoring    string `json:"anchoring"`
	Replace      string `json:"replace"`
	CompareShown bool   `json:"compareShown"`
	Focus        string `json:"focus"`
	// With are the products of the page with the rule.
	With []string `json:"with"`
}

type fixStep struct {
	Fix      fixShown         `json:"fix"`
	Preview  studioShown      `json:"preview"`
	Synonyms []map[string]any `json:"synonyms"`
}

type fixRun struct {
	First         fixStep     `json:"first"`
	ReachedOneWay bool        `json:"reachedOneWay"`
	OneWay        fixStep     `json:"oneWay"`
	Undone        studioShown `json:"undone"`
	TwoWay        fixStep     `json:"twoWay"`
	Rule          fixShown    `json:"rule"`
	Error         string      `json:"error"`
	Axe           []string    `json:"axe"`
	Phone         phoneFit    `json:"phone"`
	Console       []string    `json:"console"`
}

var _ = Describe("The Studio's fixes of a failing search", Ordered, func() {
	const query, word = "glimmerzz", "beacon"
	var fixURL, merchandiser string

	BeforeAll(func(ctx SpecContext) {
		fixURL = studioURL(query, url.Values{"fix": {"noResults"}})
		merchandiser = merchandiserKey(ctx, "studio-fix-merchandiser")
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"], `{"records": [
			{"objectID": "fx-1", "name": "Fixbook beacon red", "brand": "Lumo", "inStock": true},
			{"objectID": "fx-2", "name": "Fixbook beacon blue", "brand": "Lumo", "inStock": true}]}`, nil)).To(Equal(http.StatusAccepted))
		Eventually(func(g Gomega) {
			g.Expect(searchAPI(g, `{"q": "`+word+`"}`).Hits).To(HaveLen(2))
		}).WithTimeout(time.Minute).Should(Succeed())
		Expect(searchAPI(Default, `{"q": "`+query+`"}`).Hits).To(BeEmpty(), "the fixture: the query finds nothing")
	})

	It("opens on the query the Events page links, and fixes it with a one-way synonym, a synonym or a rule", func() {
		shot := filepath.Join(shotsDir(), "studio-fix.png")
		config := versionsOf("config")
		var res fixRun
		runNode("studio-fix.mjs", map[string]any{"scenario": "fix", "url": fixURL, "key": merchandiser, "word": word,
			"configPath": indexPath() + "/config", "shot": shot}, &res)

		By("showing the query, why it needs a fix, and its empty page")
		Expect(res.First.Fix).To(SatisfyAll(HaveField("Shown", true), HaveField("Query", "“"+query+"”"),
			HaveField("Why", ContainSubstring("found nothing"))))
		Expect(res.First.Preview.Empty).To(BeTrue())
		Expect(res.Axe).To(BeEmpty())
		expectFitsPhone(res.Phone)
		expectPNG(shot)

		By("adding a one-way synonym from the keyboard: the query finds the beacons")
		Expect(res.ReachedOneWay).To(BeTrue())
		Expect(res.OneWay.Synonyms).To(ContainElement(SatisfyAll(HaveKeyWithValue("type", "oneWay"),
			HaveKeyWithValue("input", query), HaveKeyWithValue("synonyms", ConsistOf(word)))))
		Expect(res.OneWay.Preview.Hits).To(HaveLen(2))
		Expect(res.Undone.Empty).To(BeTrue(), "undone")

		By("adding a synonym both ways with Enter")
		Expect(res.TwoWay.Synonyms).To(ContainElement(HaveKeyWithValue("terms", ConsistOf(query, word))))
		Expect(res.TwoWay.Preview.Hits).To(HaveLen(2))

		By("starting a rule on the exact query that searches the word instead, tried at once")
		Expect(res.Error).To(BeEmpty())
		Expect(res.Rule).To(SatisfyAll(HaveField("RuleID", "fix-"+query), HaveField("Pattern", query), HaveField("Anchoring", "is"),
			HaveField("Replace", word), HaveField("CompareShown", true), HaveField("Focus", "rule-pins")))
		Expect(res.Rule.With).To(ConsistOf("fx-1", "fx-2"))
		Expect(call(http.MethodGet, indexPath()+"/rules/fix-"+query, env.Keys["search"], "", nil)).To(Equal(http.StatusNotFound), "tried, not saved")
		// The first change through the API also keeps the settings before it, as version 1.
		Expect(len(versionsOf("config"))-len(config)).To(BeNumerically(">=", 4), "two saves, each undone")
		Expect(searchAPI(Default, `{"q": "`+query+`"}`).Hits).To(BeEmpty())
	})

	It("offers no fix with a search key, only the preview", func() {
		var res fixRun
		runNode("studio-fix.mjs", map[string]any{"scenario": "readOnly", "url": fixURL, "key": env.Keys["search"]}, &res)
		Expect(res.First.Fix.Shown).To(BeFalse())
		Expect(res.First.Preview.Empty).To(BeTrue())
	})
})
