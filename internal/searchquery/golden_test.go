package searchquery_test

import (
	"bytes"
	"encoding/json"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// The body of a typical two-word search, as the search benchmarks (test/searchbench and
// the side-by-side one against Lucene) send it: the settings and request of
// test/searchbench. Regenerate with AISLE_GOLDEN=1 when the query changes on purpose.
var _ = Describe("A typical two-word search", func() {
	It("sends the body in testdata/two-words.json", func() {
		s := searchv1alpha1.IndexSettings{
			SearchableFields: []searchv1alpha1.SearchableField{{Path: "name", Weight: 3}, {Path: "description", Weight: 1}},
			FilterableFields: []searchv1alpha1.FieldPath{"brand", "price"},
			FacetFields:      []searchv1alpha1.FieldPath{"brand"},
			SortableFields:   []searchv1alpha1.FieldPath{"price"},
			CustomRanking:    []searchv1alpha1.RankingRule{{Field: "popularity", Order: searchv1alpha1.SortDescending}},
		}
		bench := searchquery.Schema{
			"brand":      {Path: "brand", Kind: searchquery.KindString, Type: "text", Keyword: "brand.keyword"},
			"price":      {Path: "price", Kind: searchquery.KindNumber, Type: "long", Keyword: "price"},
			"popularity": {Path: "popularity", Kind: searchquery.KindNumber, Type: "long", Keyword: "popularity"},
		}
		plan, err := searchquery.Build(decode(`{"q": "leathr wallet", "limit": 20, "facets": ["brand"],
		"filters": {"field": "price", "range": {"lt": 400}}}`), searchquery.KeyedAccess(s), bench)
		Expect(err).NotTo(HaveOccurred())
		var pretty bytes.Buffer
		Expect(json.Indent(&pretty, plan.Body, "", "  ")).To(Succeed())
		pretty.WriteString("\n")
		if os.Getenv("AISLE_GOLDEN") != "" {
			Expect(os.WriteFile("testdata/two-words.json", pretty.Bytes(), 0o644)).To(Succeed())
		}
		want, err := os.ReadFile("testdata/two-words.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(pretty.String()).To(Equal(string(want)))
	})
})
