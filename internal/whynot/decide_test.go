package whynot_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/aislehq/aisle/internal/searchquery"
	"github.com/aislehq/aisle/internal/whynot"
)

func ranking(words, typos int, popularity float64) *searchquery.Ranking {
	return &searchquery.Ranking{Words: words, Typo: typos, Custom: map[string]any{"popularity": popularity}}
}

var order = whynot.Order{Criteria: []string{"words", "typo", "rules", "proximity", "attribute", "exact", "custom"}, Custom: []string{"popularity"}}

// facts are those of a record x, second of two, on a page of one hit (a).
func facts(change func(*whynot.Facts)) whynot.Facts {
	f := whynot.Facts{ObjectID: "x", Page: []string{"a"}, Last: ranking(2, 0, 5), LastID: "a",
		Probe: whynot.ProbeAnswer{Exists: true}, Ranking: ranking(2, 0, 3),
		Window: []whynot.Ranked{{ID: "a"}, {ID: "x"}}, Order: order, Closest: map[string]string{}}
	if change != nil {
		change(&f)
	}
	return f
}

func reasons(w searchquery.WhyNot) []searchquery.Reason { return w.Reasons }

var _ = Describe("Deciding why a record is not on the page", func() {
	DescribeTable("names each reason from what the searches found",
		func(f whynot.Facts, position *int, want ...searchquery.Reason) {
			w := whynot.Decide(f)
			Expect(w.ObjectID).To(Equal("x"))
			if position == nil {
				Expect(w.Position).To(BeNil())
			} else {
				Expect(w.Position).To(HaveValue(Equal(*position)))
			}
			Expect(reasons(w)).To(Equal(append([]searchquery.Reason{}, want...)))
		},
		Entry("on the page: no reason, its position counting the offset", facts(func(f *whynot.Facts) {
			f.Page, f.Offset = []string{"a", "x"}, 20
		}), ptr(22)),
		Entry("on the page but kept from public search by the policy", facts(func(f *whynot.Facts) {
			f.Page = []string{"x"}
			f.Probe.Failed = []whynot.Check{{Kind: whynot.KindPolicy, Name: "forcedFilters[0]"}}
		}), ptr(1), searchquery.Reason{Reason: "policy", Detail: map[string]any{"filter": "forcedFilters[0]"}}),
		Entry("no such record: notFound and nothing else", facts(func(f *whynot.Facts) {
			f.Probe = whynot.ProbeAnswer{}
			f.Ranking, f.Window = nil, nil
		}), nil, searchquery.Reason{Reason: "notFound", Detail: map[string]any{}}),
		Entry("hidden by a rule: no position, no ranking compared", facts(func(f *whynot.Facts) {
			f.HiddenBy, f.Ranking, f.Window = "r1", nil, []whynot.Ranked{{ID: "a"}}
		}), nil, searchquery.Reason{Reason: "hidden", Detail: map[string]any{"rule": "r1"}}),
		Entry("filtered by the request's filters and a rule's", facts(func(f *whynot.Facts) {
			f.Ranking, f.Window = nil, []whynot.Ranked{{ID: "a"}}
			f.Probe.Failed = []whynot.Check{{Kind: whynot.KindFilter, Name: "filters"}, {Kind: whynot.KindRule, Name: "r2"}}
		}), nil, searchquery.Reason{Reason: "filtered", Detail: map[string]any{"filter": "filters"}},
			searchquery.Reason{Reason: "filtered", Detail: map[string]any{"filter": "rule", "rule": "r2"}}),
		Entry("missing words with their closest, the text not matching at all", facts(func(f *whynot.Facts) {
			f.Ranking, f.Window = nil, []whynot.Ranked{{ID: "a"}}
			f.Probe.Failed = []whynot.Check{{Kind: whynot.KindText, Name: "q"}, {Kind: whynot.KindWord, Name: "desk"}}
			f.Closest = map[string]string{"desk": "dresser"}
		}), nil, searchquery.Reason{Reason: "missingWords", Detail: map[string]any{
			"words": []map[string]any{{"word": "desk", "closest": "dresser"}}, "matchesQuery": false}}),
		Entry("a missing word and ranked below by words", facts(func(f *whynot.Facts) {
			f.Ranking = ranking(1, 0, 9)
			f.Probe.Failed = []whynot.Check{{Kind: whynot.KindWord, Name: "desk"}}
			f.Closest = map[string]string{"desk": "dresser"}
		}), ptr(2), searchquery.Reason{Reason: "missingWords", Detail: map[string]any{
			"words": []map[string]any{{"word": "desk", "closest": "dresser"}}, "matchesQuery": true}},
			searchquery.Reason{Reason: "ranked", Detail: map[string]any{"criterion": "words", "objectID": "a", "above": 2, "value": 1}}),
		Entry("ranked by custom ranking, naming the field", facts(nil), ptr(2),
			searchquery.Reason{Reason: "ranked", Detail: map[string]any{"criterion": "custom", "field": "popularity", "objectID": "a", "above": 5.0, "value": 3.0}}),
		Entry("beyond the first 1,000: no position, still ranked", facts(func(f *whynot.Facts) {
			f.Window = []whynot.Ranked{{ID: "a"}}
		}), nil, searchquery.Reason{Reason: "ranked", Detail: map[string]any{"criterion": "custom", "field": "popularity", "objectID": "a", "above": 5.0, "value": 3.0}}),
		Entry("another record of its group shown instead", facts(func(f *whynot.Facts) {
			f.Group = "socks"
			f.Window = []whynot.Ranked{{ID: "a", Group: "shoes"}, {ID: "b", Group: "socks"}}
		}), nil, searchquery.Reason{Reason: "distinct", Detail: map[string]any{"objectID": "b"}}),
		Entry("pinned by a rule further on: the pin's position, nothing compared", facts(func(f *whynot.Facts) {
			f.Pinned = 7
		}), ptr(7)),
	)
})

var _ = Describe("Which criterion put one hit before another", func() {
	rules := func(r *searchquery.Ranking, w int) *searchquery.Ranking { r.Rules = &w; return r }
	level := func(l int) *int { return &l }
	DescribeTable("is the first of the order on which they differ",
		func(above, below *searchquery.Ranking, want whynot.Beat, found bool) {
			b, ok := whynot.Beaten(order, above, below)
			Expect(ok).To(Equal(found))
			Expect(b).To(Equal(want))
		},
		Entry("words before everything", ranking(3, 2, 1), ranking(2, 0, 9), whynot.Beat{Criterion: "words", Above: 3, Below: 2}, true),
		Entry("typo once words tie", ranking(2, 0, 1), ranking(2, 1, 9), whynot.Beat{Criterion: "typo", Above: 0, Below: 1}, true),
		Entry("the rules' band, a record without a boost at 0", rules(ranking(2, 0, 1), 3), ranking(2, 0, 9), whynot.Beat{Criterion: "rules", Above: 3, Below: 0}, true),
		Entry("custom by its field", ranking(2, 0, 9), ranking(2, 0, 1), whynot.Beat{Criterion: "custom", Field: "popularity", Above: 9.0, Below: 1.0}, true),
		Entry("custom by its level when moved before text criteria",
			&searchquery.Ranking{CustomLevel: level(4)}, &searchquery.Ranking{CustomLevel: level(2)}, whynot.Beat{Criterion: "custom", Above: 4, Below: 2}, true),
		Entry("a tie on every criterion: the text's BM25 decided", ranking(2, 0, 1), ranking(2, 0, 1), whynot.Beat{}, false),
		Entry("nothing to compare with", nil, ranking(2, 0, 1), whynot.Beat{}, false),
	)
})

func ptr(i int) *int { return &i }
