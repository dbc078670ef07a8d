package searchquery_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	searchv1alpha1 "github.com/aislehq/aisle/api/v1alpha1"
	"github.com/aislehq/aisle/internal/searchquery"
)

var _ = Describe("Ranking by popularity (customRanking _popularity)", func() {
	popular := searchquery.Access{Settings: searchv1alpha1.IndexSettings{
		EventRanking:  &searchv1alpha1.EventRanking{Enabled: true},
		CustomRanking: []searchv1alpha1.RankingRule{{Field: "_popularity"}, {Field: "price", Order: "asc"}}}}
	plan := func(body string, signals string) string {
		p, err := searchquery.BuildWith(decode(body), popular, schema, searchquery.Inputs{Signals: signals})
		Expect(err).NotTo(HaveOccurred())
		return string(p.Bodies.Search)
	}

	It("looks each level up in the signals index, inside the score, with no script", func() {
		body := plan(`{"q": "shoe"}`, "aisle.shop.products.signals")
		Expect(strings.Count(body, `"index":"aisle.shop.products.signals"`)).To(Equal(searchquery.PopularityLevels - 1))
		Expect(body).To(ContainSubstring(`{"id":"popularity-31","index":"aisle.shop.products.signals","path":"ids"}`))
		Expect(body).NotTo(ContainSubstring("script"))
	})

	It("ranks the browse page too, and keeps the other custom fields as exact tie-breakers after the score", func() {
		var m map[string]any
		Expect(json.Unmarshal([]byte(plan(`{}`, "sig")), &m)).To(Succeed())
		Expect(toJSON(m["query"])).To(ContainSubstring(`"id":"popularity-1"`))
		Expect(toJSON(m["sort"])).To(Equal(`[{"_score":{"order":"desc"}},{"price":{"order":"asc"}},{"objectID":{"order":"asc"}}]`))
	})

	It("looks nothing up before the signals index exists", func() {
		Expect(plan(`{"q": "shoe"}`, "")).NotTo(ContainSubstring("popularity-"))
	})
})

var _ = Describe("Re-ranking a first page", func() {
	page := func(ids ...string) *searchquery.Response {
		res := &searchquery.Response{}
		for _, id := range ids {
			res.Hits = append(res.Hits, searchquery.Hit{ObjectID: id, Ranking: &searchquery.Ranking{}, Promoted: strings.HasPrefix(id, "pin")})
		}
		return res
	}
	order := func(res *searchquery.Response) []string {
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.ObjectID)
		}
		return out
	}

	It("moves a record shoppers prefer up by its score's share of the page, and says so in explain", func() {
		res := page("a", "b", "c", "d", "e")
		searchquery.ReRank(res, map[string]float64{"e": 0.9}, 50)
		Expect(order(res)).To(Equal([]string{"a", "b", "e", "c", "d"}))
		Expect(res.Hits[2].Ranking.ReRank).To(Equal(&searchquery.ReRankShift{Score: 0.9, From: 5, To: 3}))
		Expect(res.Hits[0].Ranking.ReRank).To(BeNil())
	})

	It("keeps promoted records at their positions", func() {
		res := page("pin1", "a", "b", "c")
		searchquery.ReRank(res, map[string]float64{"c": 1}, 100)
		Expect(order(res)).To(Equal([]string{"pin1", "c", "a", "b"}))
	})

	It("changes nothing without scores", func() {
		res := page("a", "b")
		searchquery.ReRank(res, nil, 100)
		Expect(order(res)).To(Equal([]string{"a", "b"}))
	})
})
