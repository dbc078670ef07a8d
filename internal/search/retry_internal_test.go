package search

import (
	"encoding/json"
	"errors"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/es"
	"github.com/aislehq/aisle/internal/searchquery"
)

// A facet value search goes through the retry loop an API search takes (job.advance).
var _ = Describe("A facet value search's rounds", func() {
	settings := searchv1alpha1.IndexSettings{
		SearchableFields: []searchv1alpha1.SearchableField{{Path: "name"}},
		FacetFields:      []searchv1alpha1.FieldPath{"brand"},
	}
	schema := searchquery.Schema{
		"name":  {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"},
		"brand": {Path: "brand", Kind: searchquery.KindString, Type: "keyword", Keyword: "brand"},
	}
	var qs []string
	start := func(q string) *job[*facetTry] {
		qs = nil
		j, err := newRetrying("alias", 0, func(drop int) (*facetTry, error) {
			plan, err := searchquery.BuildFacetSearch(searchquery.FacetSearchRequest{Q: q}, "brand", searchquery.KeyedAccess(settings), schema, drop)
			qs = append(qs, string(plan.Body))
			return &facetTry{plan: plan}, err
		})
		Expect(err).NotTo(HaveOccurred())
		return j
	}
	values := `{"hits": {"total": {"value": %d}}, "aggregations": {"values": {"buckets": [{"key": "Acme", "doc_count": 2}]}}}`

	DescribeTable("sends one body a round and answers with the values of the one it keeps",
		func(answers []string, rounds int, want string) {
			j := start("red shoe")
			for i, a := range answers {
				Expect(j.bodies()).To(HaveLen(1), "round %d", i)
				var err error
				if a == "" {
					err = es.ErrNotFound
				}
				j.advance([][]byte{[]byte(a)}, []error{err})
			}
			Expect(j.bodies()).To(BeNil())
			Expect(j.err).NotTo(HaveOccurred())
			Expect(qs).To(HaveLen(rounds))
			got, err := json.Marshal(j.cur.res)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(MatchJSON(want))
		},
		Entry("values found", []string{fmt.Sprintf(values, 2)}, 1, `{"values": [{"value": "Acme", "count": 2, "highlighted": "Acme"}]}`),
		Entry("an index without a physical index has no values", []string{""}, 1, `{"values": []}`),
		// Its q matches by frequency (a facet value search has no matchingStrategy), whose
		// plan never drops a word: nothing matched is the answer.
		Entry("nothing matched, by frequency: no second round", []string{`{"hits": {"total": {"value": 0}}, "aggregations": {"values": {"buckets": []}}}`}, 1, `{"values": []}`),
	)

	It("fails with the backend's error, and sends nothing more", func() {
		errBackend := errors.New("the backend is down")
		j := start("shoe")
		j.advance([][]byte{nil}, []error{errBackend})
		Expect(j.err).To(MatchError(errBackend))
		Expect(j.bodies()).To(BeNil())
	})
})
