package searchquery_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

func facetSearchPlan(body, field string, r searchquery.Access) searchquery.FacetSearchPlan {
	var req searchquery.FacetSearchRequest
	Expect(json.Unmarshal([]byte(body), &req)).To(Succeed())
	plan, err := searchquery.BuildFacetSearch(req, field, r, shopSchema, 0)
	Expect(err).NotTo(HaveOccurred())
	return plan
}

// valuesAnswer is an answer counting values (value: count), most frequent first.
func valuesAnswer(counts ...any) []byte {
	var buckets []string
	for i := 0; i < len(counts); i += 2 {
		key, _ := json.Marshal(counts[i])
		buckets = append(buckets, fmt.Sprintf(`{"key": %s, "doc_count": %d}`, key, counts[i+1]))
	}
	return []byte(`{"hits": {"total": {"value": 9}}, "aggregations": {"values": {"buckets": [` + strings.Join(buckets, ",") + `]}}}`)
}

func facetHits(plan searchquery.FacetSearchPlan, raw []byte) string {
	res, err := searchquery.ShapeFacetSearch(plan, raw)
	Expect(err).NotTo(HaveOccurred())
	return toJSON(res)
}

var _ = Describe("A facet value search", func() {
	keyed := searchquery.KeyedAccess(shopSettings)
	brands := valuesAnswer("Acme", 9, "Globex", 7, "New Balance", 5, "Achtung", 3, "Crème brûlée", 2, "Tom & Jerry", 1)

	DescribeTable("matches values as a prefix of their words with the index's typos, marking what matched",
		func(facetQuery string, want string) {
			plan := facetSearchPlan(`{"facetQuery": "`+facetQuery+`"}`, "brand", keyed)
			Expect(facetHits(plan, brands)).To(MatchJSON(want))
		},
		Entry("a prefix, case aside", "ac", `{"values": [{"value": "Acme", "count": 9, "highlighted": "<em>Ac</em>me"},
			{"value": "Achtung", "count": 3, "highlighted": "<em>Ac</em>htung"}]}`),
		Entry("a typo in a word of four letters", "acmr", `{"values": [{"value": "Acme", "count": 9, "highlighted": "<em>Acme</em>"}]}`),
		Entry("a later word", "bal", `{"values": [{"value": "New Balance", "count": 5, "highlighted": "New <em>Bal</em>ance"}]}`),
		Entry("two words", "new bal", `{"values": [{"value": "New Balance", "count": 5, "highlighted": "<em>New</em> <em>Bal</em>ance"}]}`),
		Entry("without accents", "creme", `{"values": [{"value": "Crème brûlée", "count": 2, "highlighted": "<em>Crème</em> brûlée"}]}`),
		Entry("escaping the value", "jer", `{"values": [{"value": "Tom & Jerry", "count": 1, "highlighted": "Tom &amp; <em>Jer</em>ry"}]}`),
		Entry("no typo in a word of three letters", "acx", `{"values": []}`),
		Entry("a typo in the first letter counts as two", "xcme", `{"values": []}`),
	)

	It("returns the most frequent values for an empty facet query, up to maxValues", func() {
		plan := facetSearchPlan(`{"maxValues": 2}`, "brand", keyed)
		Expect(facetHits(plan, brands)).To(MatchJSON(`{"values": [{"value": "Acme", "count": 9, "highlighted": "Acme"},
			{"value": "Globex", "count": 7, "highlighted": "Globex"}]}`))
	})

	It("puts fewer typos first among values counted alike", func() {
		plan := facetSearchPlan(`{"facetQuery": "cape"}`, "brand", keyed)
		Expect(facetHits(plan, valuesAnswer("Caps", 4, "Capes", 4))).To(MatchJSON(`{"values": [
			{"value": "Capes", "count": 4, "highlighted": "<em>Cape</em>s"}, {"value": "Caps", "count": 4, "highlighted": "<em>Caps</em>"}]}`))
	})

	It("matches without typos when the index turns them off", func() {
		off := shopSettings.DeepCopy()
		off.TypoTolerance = &searchv1alpha1.TypoTolerance{Enabled: ptr(false)}
		plan := facetSearchPlan(`{"facetQuery": "acmr"}`, "brand", searchquery.KeyedAccess(*off))
		Expect(facetHits(plan, brands)).To(MatchJSON(`{"values": []}`))
	})

	It("matches numbers and booleans by their text", func() {
		plan := facetSearchPlan(`{"facetQuery": "4"}`, "price", keyed)
		Expect(facetHits(plan, valuesAnswer(42, 3, 7, 2))).To(MatchJSON(`{"values": [{"value": 42, "count": 3, "highlighted": "<em>4</em>2"}]}`))
	})

	It("counts within the search, leaving out the field's own selection, and asks for the values starting with the query", func() {
		plan := facetSearchPlan(`{"facetQuery": "a.c", "q": "shoe", "filters": {"field": "price", "range": {"lt": 100}},
			"facetFilters": {"brand": ["Acme"], "specs.color": ["red"]}}`, "brand", keyed)
		m := fromJSON(plan.Body)
		Expect(m["size"]).To(BeEquivalentTo(0))
		Expect(toJSON(filtersOf(m))).To(MatchJSON(`[{"range": {"price": {"lt": 100}}}, {"term": {"specs.color.keyword": "red"}}]`))
		Expect(toJSON(m["aggs"])).To(MatchJSON(`{"values": {"terms": {"field": "brand.keyword", "size": 1000}},
			"prefixed": {"terms": {"field": "brand.keyword", "size": 100, "include": "(.*[^a-zA-Z0-9])?[aA]\\.[cC].*"}}}`))
	})

	It("reads the values of both aggregations once", func() {
		plan := facetSearchPlan(`{"facetQuery": "zu"}`, "brand", keyed)
		raw := []byte(`{"aggregations": {"values": {"buckets": [{"key": "Zulu", "doc_count": 2}]},
			"prefixed": {"buckets": [{"key": "Zulu", "doc_count": 2}, {"key": "Zurich", "doc_count": 1}]}}}`)
		Expect(facetHits(plan, raw)).To(MatchJSON(`{"values": [{"value": "Zulu", "count": 2, "highlighted": "<em>Zu</em>lu"},
			{"value": "Zurich", "count": 1, "highlighted": "<em>Zu</em>rich"}]}`))
	})

	DescribeTable("refuses what a search may not ask, naming the place",
		func(body, field string, r searchquery.Access, message string) {
			var req searchquery.FacetSearchRequest
			Expect(json.Unmarshal([]byte(body), &req)).To(Succeed())
			_, err := searchquery.BuildFacetSearch(req, field, r, shopSchema, 0)
			Expect(errors.Is(err, searchquery.ErrInvalid)).To(BeTrue(), "error: %v", err)
			Expect(err).To(MatchError(ContainSubstring(message)))
		},
		Entry("a field that is not a facet field", `{}`, "groupId", keyed, `field: "groupId" is not a facet field`),
		Entry("a facet the policy does not allow", `{}`, "price",
			searchquery.PublicAccess(shopSettings, searchv1alpha1.PublicSearchPolicy{AllowedFacets: []searchv1alpha1.FieldPath{"brand"}}),
			`field: "price" is not allowed in public facets (allowed: brand)`),
		Entry("more than 100 values", `{"maxValues": 101}`, "brand", keyed, "maxValues: must be between 1 and 100"),
		Entry("a negative maxValues", `{"maxValues": -1}`, "brand", keyed, "maxValues: must be between 1 and 100"),
		Entry("an over-long facet query", `{"facetQuery": "`+strings.Repeat("a", 513)+`"}`, "brand", keyed, "facetQuery: must be at most 512 bytes"),
		Entry("an over-long q", `{"q": "`+strings.Repeat("a", 513)+`"}`, "brand", keyed, "q: must be at most 512 bytes"),
		Entry("a filter on a field that is not filterable", `{"filters": {"field": "name", "eq": "x"}}`, "brand", keyed, `filters.field: "name" is not a filterable field`),
		Entry("a selection of a field that is not a facet field", `{"facetFilters": {"groupId": ["g"]}}`, "brand", keyed, `facetFilters.groupId: "groupId" is not a facet field`),
	)
})
