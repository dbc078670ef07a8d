package browser

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// facetsRun is what studio-facets.mjs printed.
type facetsRun struct {
	First   facetsShown `json:"first"`
	Drafted facetsShown `json:"drafted"`
	Saved   facetsShown `json:"saved"`
	Config  struct {
		FacetOrdering json.RawMessage `json:"facetOrdering"`
	} `json:"config"`
	Axe     []string `json:"axe"`
	Phone   phoneFit `json:"phone"`
	Console []string `json:"console"`
}

type facetsShown struct {
	Editor []struct {
		Field  string `json:"field"`
		Values []struct {
			Value  string `json:"value"`
			Pinned bool   `json:"pinned"`
			Hidden bool   `json:"hidden"`
		} `json:"values"`
		Remaining string `json:"remaining"`
		Buttons   int    `json:"buttons"`
	} `json:"editor"`
	Preview []struct {
		Field  string   `json:"field"`
		Values []string `json:"values"`
	} `json:"preview"`
	SaveShown bool   `json:"saveShown"`
	Error     string `json:"error"`
}

// fieldsOf is the facet fields the editor and the preview show, in order; previewValues
// the values the preview shows of field.
func (f facetsShown) fieldsOf() (editor, preview []string) {
	editor, preview = []string{}, []string{}
	for _, e := range f.Editor {
		editor = append(editor, e.Field)
	}
	for _, p := range f.Preview {
		preview = append(preview, p.Field)
	}
	return editor, preview
}

func (f facetsShown) previewValues(field string) []string {
	for _, p := range f.Preview {
		if p.Field == field {
			return p.Values
		}
	}
	return nil
}

// putFacetOrdering sets the sample index's facetOrdering (null: none) through PUT /config.
func putFacetOrdering(ordering any) {
	GinkgoHelper()
	status, raw := callFor(http.MethodGet, indexPath()+"/config", env.Keys["write"], "", nil)
	Expect(status).To(Equal(http.StatusOK), raw)
	var cfg map[string]any
	Expect(json.Unmarshal([]byte(raw), &cfg)).To(Succeed())
	delete(cfg, "rebuild")
	if ordering == nil {
		delete(cfg, "facetOrdering")
	} else {
		cfg["facetOrdering"] = ordering
	}
	body, err := json.Marshal(cfg)
	Expect(err).NotTo(HaveOccurred())
	status, raw = callFor(http.MethodPut, indexPath()+"/config", env.Keys["write"], string(body), nil)
	Expect(status).To(Equal(http.StatusOK), raw)
}

var _ = Describe("The Studio's facet ordering", Ordered, func() {
	const query = "facetbook"
	var page, merchandiser string

	BeforeAll(func(ctx SpecContext) {
		page = studioURL(query)
		merchandiser = merchandiserKey(ctx, "studio-facets-merchandiser")
		By("writing five records of three brands and two categories, with no facet ordering set")
		Expect(call(http.MethodPost, indexPath()+"/records", env.Keys["write"], `{"records": [
			{"objectID": "fb-1", "name": "Facetbook lamp one", "brand": "Lumo", "categories": ["lamps"], "inStock": true},
			{"objectID": "fb-2", "name": "Facetbook lamp two", "brand": "Lumo", "categories": ["lamps"], "inStock": true},
			{"objectID": "fb-3", "name": "Facetbook sconce", "brand": "Lumo", "categories": ["sconces"], "inStock": true},
			{"objectID": "fb-4", "name": "Facetbook sconce glow", "brand": "Glow", "categories": ["sconces"], "inStock": true},
			{"objectID": "fb-5", "name": "Facetbook lamp zed", "brand": "Zed", "categories": ["lamps"], "inStock": true}]}`, nil)).
			To(Equal(http.StatusAccepted))
		putFacetOrdering(nil)
		DeferCleanup(func() { putFacetOrdering(nil) })
		Eventually(func(g Gomega) {
			g.Expect(searchAPI(g, `{"q": "`+query+`"}`).Hits).To(HaveLen(5))
		}).WithTimeout(time.Minute).Should(Succeed())
	})

	It("drags facets and values into order, pins and hides values from the keyboard, sorts the others, and the preview follows once saved", func() {
		shot := filepath.Join(shotsDir(), "studio-facets.png")
		var res facetsRun
		runNode("studio-facets.mjs", map[string]any{"scenario": "edit", "url": page, "key": merchandiser,
			"dragFacet": "categories", "ontoFacet": "brand", "field": "brand", "dragValue": "Zed", "ontoValue": "Lumo",
			"pinValue": "Glow", "hideValue": "Lumo", "otherField": "categories", "configPath": indexPath() + "/config", "shot": shot}, &res)

		By("showing the answer's facets, values by count, before any ordering")
		Expect(res.First.Error).To(BeEmpty())
		Expect(res.First.SaveShown).To(BeTrue())
		editor, preview := res.First.fieldsOf()
		Expect(editor).To(Equal([]string{"brand", "categories"}))
		Expect(preview).To(Equal([]string{"brand", "categories"}))
		Expect(res.First.previewValues("brand")).To(Equal([]string{"Lumo", "Glow", "Zed"}))

		By("editing a draft the editor shows at once, and the preview not before it is saved")
		editor, preview = res.Drafted.fieldsOf()
		Expect(editor).To(Equal([]string{"categories", "brand"}))
		Expect(preview).To(Equal([]string{"brand", "categories"}))
		brand := res.Drafted.Editor[1]
		Expect(brand.Values).To(HaveLen(3))
		Expect(brand.Values[0]).To(SatisfyAll(HaveField("Value", "Zed"), HaveField("Pinned", true)))
		Expect(brand.Values[1]).To(SatisfyAll(HaveField("Value", "Glow"), HaveField("Pinned", true)))
		Expect(brand.Values[2]).To(SatisfyAll(HaveField("Value", "Lumo"), HaveField("Hidden", true)))
		Expect(res.Drafted.Editor[0].Remaining).To(Equal("alpha"))
		Expect(res.Axe).To(BeEmpty())
		expectFitsPhone(res.Phone)
		expectPNG(shot)

		By("saving it into the settings: the preview shows its answer in that order")
		Expect(res.Saved.Error).To(BeEmpty())
		Expect(res.Config.FacetOrdering).To(MatchJSON(`{"facets": {"order": ["categories", "brand"]},
			"values": {"brand": {"order": ["Zed", "Glow"], "hide": ["Lumo"]}, "categories": {"sortRemainingBy": "alpha"}}}`))
		_, preview = res.Saved.fieldsOf()
		Expect(preview).To(Equal([]string{"categories", "brand"}))
		Expect(res.Saved.previewValues("brand")).To(Equal([]string{"Zed", "Glow"}))
		Expect(res.Saved.previewValues("categories")).To(Equal([]string{"lamps", "sconces"}))
	})

	It("shows the ordering read-only with a search key", func() {
		var res facetsRun
		runNode("studio-facets.mjs", map[string]any{"scenario": "readOnly", "url": page, "key": env.Keys["search"]}, &res)
		Expect(res.First.SaveShown).To(BeFalse())
		editor, _ := res.First.fieldsOf()
		Expect(editor).To(Equal([]string{"categories", "brand"}))
		for _, f := range res.First.Editor {
			Expect(f.Buttons).To(BeZero(), f.Field)
		}
		Expect(res.Axe).To(BeEmpty())
	})
})
