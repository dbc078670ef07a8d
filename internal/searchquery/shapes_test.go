package searchquery_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

// A field the settings name may come to hold objects or geo points, which Elasticsearch
// neither sorts nor counts by value: a search must not fail for it (issue 15 audit: a
// custom ranking on such a field made every search of the index fail).
var _ = Describe("Fields that hold no sortable values", func() {
	odd := searchquery.Schema{
		"name":  {Path: "name", Kind: searchquery.KindString, Type: "text", Keyword: "name.keyword"},
		"price": {Path: "price", Kind: searchquery.KindNumber, Type: "float", Keyword: "price"},
		"empty": {Path: "empty", Kind: searchquery.KindOther, Type: "object", Keyword: "empty"},
		"loc":   {Path: "loc", Kind: searchquery.KindOther, Type: "geo_point", Keyword: "loc"},
	}
	oddSettings := searchv1alpha1.IndexSettings{
		FacetFields:    []searchv1alpha1.FieldPath{"empty", "loc", "name"},
		SortableFields: []searchv1alpha1.FieldPath{"empty", "loc", "price"},
		CustomRanking:  []searchv1alpha1.RankingRule{{Field: "empty"}, {Field: "loc"}, {Field: "price"}},
	}
	plan := func(body string) map[string]any {
		p, err := searchquery.Build(decode(body), searchquery.KeyedAccess(oddSettings), odd)
		Expect(err).NotTo(HaveOccurred())
		var m map[string]any
		Expect(json.Unmarshal(p.Bodies.Search, &m)).To(Succeed())
		return m
	}

	It("leaves them out of the custom ranking", func() {
		Expect(toJSON(plan(`{}`)["sort"])).To(MatchJSON(`[{"_score": {"order": "desc"}}, {"price": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
	})

	It("leaves them out of a request's sort", func() {
		Expect(toJSON(plan(`{"sort": [{"field": "empty"}, {"field": "loc"}, {"field": "price"}]}`)["sort"])).To(MatchJSON(
			`[{"price": {"order": "asc"}}, {"_score": {"order": "desc"}}, {"price": {"order": "desc"}}, {"objectID": {"order": "asc"}}]`))
	})

	It("counts no values of them as facets", func() {
		Expect(toJSON(plan(`{"facets": ["empty", "loc", "name"]}`)["aggs"])).To(MatchJSON(
			`{"f2": {"terms": {"field": "name.keyword", "size": 10}}}`))
	})
})
