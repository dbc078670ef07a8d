package merch

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var applySettings = searchv1alpha1.IndexSettings{FilterableFields: []searchv1alpha1.FieldPath{"brand"}}

var applySchema = searchquery.Schema{"brand": {Path: "brand", Kind: searchquery.KindString, Keyword: "brand.keyword"}}

// withConsequence is a compiled rule with consequence c (JSON).
func withConsequence(id, c string) *compiled {
	var cons Consequence
	Expect(json.Unmarshal([]byte(c), &cons)).To(Succeed())
	return &compiled{rule: Rule{ObjectID: id, Consequence: cons}}
}

// tokens are q's words as lowercase tokens with their places (what the generic language
// makes of plain words).
func tokens(q string) []token {
	var out []token
	for i := 0; i < len(q); {
		for i < len(q) && q[i] == ' ' {
			i++
		}
		start := i
		for i < len(q) && q[i] != ' ' {
			i++
		}
		if i > start {
			out = append(out, token{term: strings.ToLower(q[start:i]), start: start, end: i})
		}
	}
	return out
}

var _ = Describe("What the rules that apply change in a search", func() {
	It("lists the rules applied and their userData in order, and joins their filters, hidden records and boosts", func() {
		out := outcome("shoe", nil, slices.Values([]*compiled{
			withConsequence("a", `{"userData": {"banner": 1}, "filters": {"field": "brand", "eq": "acme"}, "hide": ["h1"]}`),
			withConsequence("b", `{"boost": [{"filter": {"field": "brand", "eq": "x"}, "weight": 3}], "hide": ["h1", "h2"]}`),
			withConsequence("c", `{"userData": "two", "bury": [{"filter": {"field": "brand", "eq": "y"}}]}`),
		}), applySettings, applySchema)
		Expect(out.Applied).To(Equal([]string{"a", "b", "c"}))
		Expect(out.UserData).To(Equal([]json.RawMessage{json.RawMessage(`{"banner": 1}`), json.RawMessage(`"two"`)}))
		Expect(out.RuleChanges.Filters).To(HaveLen(1))
		Expect(out.RuleChanges.Hide).To(Equal([]string{"h1", "h2"}))
		Expect(out.RuleChanges.Boost).To(Equal([]searchquery.Weighted{{Query: map[string]any{"term": map[string]any{"brand.keyword": "x"}}, Weight: 3}}))
		Expect(out.RuleChanges.Bury).To(HaveLen(1))
		Expect(out.RuleChanges.Bury[0].Weight).To(Equal(1))
		By("naming the first rule hiding each record, and the rule of each filter, for why not")
		Expect(out.HiddenBy).To(Equal(map[string]string{"h1": "a", "h2": "b"}))
		Expect(out.FilteredBy).To(Equal([]string{"a"}))
	})

	It("skips a rule whose filters no longer fit the settings, applying the others", func() {
		out := outcome("shoe", nil, slices.Values([]*compiled{
			withConsequence("stale", `{"userData": 1, "boost": [{"filter": {"field": "color", "eq": "red"}}]}`),
			withConsequence("fine", `{"userData": 2}`),
		}), applySettings, applySchema)
		Expect(out.Applied).To(Equal([]string{"fine"}))
		Expect(out.RuleChanges).To(BeNil())
	})

	It("applies at most ten rules, the first in order", func() {
		var matches []*compiled
		for i := 0; i < 12; i++ {
			matches = append(matches, withConsequence(fmt.Sprintf("r%02d", i), `{"userData": 1}`))
		}
		Expect(outcome("", nil, slices.Values(matches), applySettings, applySchema).Applied).To(HaveLen(MaxApplied))
	})

	It("promotes each record once, at the first rule's position, and never a hidden one", func() {
		out := outcome("", nil, slices.Values([]*compiled{
			withConsequence("a", `{"promote": [{"objectID": "p1", "position": 2}, {"objectID": "p2", "position": 1}]}`),
			withConsequence("b", `{"promote": [{"objectID": "p1", "position": 9}, {"objectID": "p3", "position": 3}], "hide": ["p2"]}`),
		}), applySettings, applySchema)
		Expect(out.Pins).To(Equal([]Pin{{"p1", 2}, {"p3", 3}}))
		Expect(out.RuleChanges.Promoted).To(Equal([]string{"p1", "p3"}))
	})

	It("rewrites the query by the first rule with a query consequence only", func() {
		first, second := "laptop", "tablet"
		out := outcome("notebook", tokens("notebook"), slices.Values([]*compiled{
			withConsequence("a", fmt.Sprintf(`{"query": {"replace": %q}}`, first)),
			withConsequence("b", fmt.Sprintf(`{"query": {"replace": %q}}`, second)),
		}), applySettings, applySchema)
		Expect(out.Query).To(Equal("laptop"))
		Expect(out.Applied).To(Equal([]string{"a", "b"}))
	})

	DescribeTable("removing words cuts them where the query holds them",
		func(q string, remove [][]string, want string) {
			Expect(editQuery(q, tokens(q), QueryEdit{Remove: []string{"x"}}, remove)).To(Equal(want))
		},
		Entry("a word inside", "red cheap shoes", [][]string{{"cheap"}}, "red shoes"),
		Entry("the first word", "cheap red shoes", [][]string{{"cheap"}}, "red shoes"),
		Entry("the last word keeps the space that says the word before is complete", "red shoes cheap", [][]string{{"cheap"}}, "red shoes "),
		Entry("a run of words", "free shipping red shoes", [][]string{{"free", "shipping"}}, "red shoes"),
		Entry("not the words apart", "free red shipping", [][]string{{"free", "shipping"}}, "free red shipping"),
		Entry("every occurrence", "cheap cheap shoes", [][]string{{"cheap"}}, "shoes"),
		Entry("the whole query", "cheap", [][]string{{"cheap"}}, ""),
	)
})
