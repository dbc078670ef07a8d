package searchquery_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Matching past searches for suggestions", func() {
	noTypos := searchv1alpha1.IndexSettings{TypoTolerance: &searchv1alpha1.TypoTolerance{Enabled: new(false)}}
	DescribeTable("matches what is typed as the start of a past search, with the index's typo rules",
		func(typed, query string, s searchv1alpha1.IndexSettings, exclude []string, typos int, ok bool) {
			got, matched := searchquery.NewSuggestionMatcher(typed, s, exclude).Match(query)
			Expect(matched).To(Equal(ok))
			if ok {
				Expect(got).To(Equal(typos))
			}
		},
		Entry("a prefix of the first word", "sho", "shoes", searchv1alpha1.IndexSettings{}, nil, 0, true),
		Entry("case and accents aside", "CRÈ", "creme brulee", searchv1alpha1.IndexSettings{}, nil, 0, true),
		Entry("whole words, then a prefix", "red sh", "red shoes", searchv1alpha1.IndexSettings{}, nil, 0, true),
		Entry("not from a later word", "shoes", "red shoes", searchv1alpha1.IndexSettings{}, nil, 0, false),
		Entry("a typo in a long enough word", "snekers", "sneakers", searchv1alpha1.IndexSettings{}, nil, 1, true),
		Entry("no typo in a short word", "shu", "shoes", searchv1alpha1.IndexSettings{}, nil, 0, false),
		Entry("no typo when typo tolerance is off", "snekers", "sneakers", noTypos, nil, 0, false),
		Entry("a word followed by a space is whole", "red ", "redwood table", searchv1alpha1.IndexSettings{}, nil, 0, false),
		Entry("nothing typed matches every search", "", "anything", searchv1alpha1.IndexSettings{}, nil, 0, true),
		Entry("more words typed than searched", "red shoes size", "red shoes", searchv1alpha1.IndexSettings{}, nil, 0, false),
		Entry("a search holding an excluded word", "red", "red Crème", searchv1alpha1.IndexSettings{}, []string{"creme"}, 0, false),
	)
})
