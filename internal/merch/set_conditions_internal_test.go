package merch

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
)

func matchedIn(s *Set, q string, search Search) []string {
	out := []string{}
	for c := range s.Match(strings.Fields(q), heldBy(search), time.Now()) {
		out = append(out, c.rule.ObjectID)
	}
	return out
}

var _ = Describe("Matching conditions on filters and contexts", func() {
	shoes := &searchquery.Filter{Field: "categories", Eq: "shoes"}
	page := Search{FacetFilters: map[string][]any{"categories": {"shoes"}}}
	set := compile([]ruleDoc{
		doc("a-shoe-page", Condition{Filters: shoes}),
		doc("b-mobile", Condition{Context: "mobile"}),
		doc("c-mobile-shoes", Condition{Filters: shoes, Context: "mobile"}),
		doc("d-sale-on-shoes", func() Condition { c := cond("sale", Contains); c.Filters = shoes; return c }()),
		doc("e-either", Condition{Context: "landing"}, Condition{Filters: shoes}),
		doc("f-always"),
	})

	It("applies a rule conditioned on filters to the searches they select, the empty query too", func() {
		Expect(matchedIn(set, "", page)).To(Equal([]string{"a-shoe-page", "e-either", "f-always"}))
		Expect(matchedIn(set, "", Search{})).To(Equal([]string{"f-always"}))
	})

	It("applies a rule conditioned on a context to the searches naming it", func() {
		Expect(matchedIn(set, "", Search{Contexts: []string{"mobile"}})).To(Equal([]string{"b-mobile", "f-always"}))
		Expect(matchedIn(set, "", Search{FacetFilters: page.FacetFilters, Contexts: []string{"mobile", "landing"}})).To(
			Equal([]string{"a-shoe-page", "b-mobile", "c-mobile-shoes", "e-either", "f-always"}))
	})

	It("applies a pattern with filters only when both match, before the rules without a pattern", func() {
		Expect(matchedIn(set, "big sale", page)).To(Equal([]string{"d-sale-on-shoes", "a-shoe-page", "e-either", "f-always"}))
		Expect(matchedIn(set, "big sale", Search{})).To(Equal([]string{"f-always"}))
	})
})
